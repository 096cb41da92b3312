// Package model is gpuplan's domain: the workload a user describes, the
// architectures, GPUs and cloud instances of the catalog, and the estimation
// math (VRAM per GPU, FLOPs, time), matching, ranking and cost.
//
// It is plain Go: no terminal UI, no file or network access. Every formula
// cites its source in its doc comment; units are in names or field comments
// (bytes internally, GiB for GPU memory, USD per stated period).
package model
