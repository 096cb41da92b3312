// Package data holds gpuplan's embedded catalogs (GPUs, cloud instances
// with prices, reserved discounts, model architectures) as TOML, and loads
// them, with any user overlays, into validated model types.
//
// Decoding is strict: unknown keys, wrong types, missing sources or dates,
// non-positive sizes and prices, unknown GPU references and duplicates are
// errors naming the file and the entry.
package data
