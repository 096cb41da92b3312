// Package serve is the inference-serving math as vLLM does it: the
// request (Serving: weight and KV-cache formats, context, load, latency
// targets), one GPU's memory as vLLM lays it out (weights, profiling peak,
// KV cache), prefill and decode speed, and the serving plan on an offer:
// tensor × pipeline parallel degrees and replicas chosen for the load at
// the lowest cost: per hour for a fixed load, per million output tokens
// for a price-per-token question. "Plan" here means that
// layout; phased plans are model/plan's, launch files model/launch's.
//
// It imports only model (architectures, GPUs, the catalog and the
// matcher's filters). Like model it is plain Go: no terminal UI, no file or
// network access; every formula cites its source (vLLM source files,
// papers) in its doc comment. Bytes are bytes, times milliseconds or
// seconds as the names say, prices USD.
package serve
