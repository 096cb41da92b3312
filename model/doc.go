// Package model is gpuplan's domain: the workload a user describes, the
// architectures, GPUs and cloud instances of the catalog with their price
// lookup, and the estimation math (VRAM per GPU, FLOPs, time), matching,
// ranking and cost.
//
// It is plain Go: no terminal UI, no file or network access. Every formula
// cites its source in its doc comment; units are in names or field comments
// (bytes internally, GiB for GPU memory, USD per stated period).
//
// The packages under it build on this one and never the other way round
// (layering_test.go at the repository root holds the rule):
//
//   - model/show: text made safe to print and prices as the tables write
//     them; imports nothing of gpuplan's, and every package may use it.
//   - model/serve: inference serving as vLLM does it (KV cache, speed,
//     TP × PP × replicas on an offer); imports model only.
//   - model/market: browsing the market without a workload (GPU specs,
//     filters, rows, groups, where the prices came from); imports model
//     only.
//   - model/config: the configuration file (decode, validate, encode,
//     [serve], [launch], answers, the quantities typed in them); imports
//     model and serve.
//   - model/plan: work in phases (plan file, cost, check, savings);
//     imports model, advice, config and serve (a service phase is priced
//     by the serving ranking; a plan's savings are advice's ranking).
//   - model/advice: whether an estimate fits a GPU type and what to
//     change when it does not (CheckFit, MaxMicroBatch, fit advice), the
//     tips that save most on one GPU type, and the changes ranked by what
//     they save on the cheapest job (Savings); imports model only.
//   - model/decide: spot's expected cost with interruptions, the
//     commitments' break-even beside one offer, and the offers' time–cost
//     front for a deadline or budget; imports model only.
//   - model/probe: a probe run's result read back, compared with the
//     estimate, kept as calibration cases; imports model and serve.
//   - model/launch: the files that launch one offer (SkyPilot, torchrun,
//     vllm, docker, Kubernetes, DeepSpeed); imports model, config, serve,
//     decide (a spot training file saves every τ of decide's spot
//     estimate) and its leaves: model/launch/stack (the CUDA, driver, PyTorch wheel
//     and image a GPU needs), model/launch/cloud (providers' accelerator
//     names and networks) and model/launch/deepspeed (ds_config.json).
//     model/launch/probescript writes the probe script from a launch
//     plan; it imports launch and probe.
//
// Nothing under model/ imports ui/ or data/, os or net.
package model
