// Package launch turns a chosen offer into the files that start the job:
// a SkyPilot task YAML, a torchrun command line, a docker run line, a
// Kubernetes Job (a Kubeflow Trainer v2 TrainJob across nodes, or a
// Training Operator v1 PyTorchJob), a DeepSpeed config for ZeRO, and the
// [launch] section of gpuplan's TOML; and for a serving plan
// (serve.Plan, NewServe) a vllm serve line, its docker run, a SkyServe
// service YAML, a Kubernetes Deployment and Service, and a [serve]
// section. The software stack those files install for the GPU (CUDA
// toolkit and driver, PyTorch wheel, NGC image, bf16 and fp8) is
// model/launch/stack's advice.
//
// Build a Plan with NewPlan from a model.Workload and a model.Offer that
// model.Recommend returned, then call Render with a Format. It imports
// model, model/config and model/serve only. Like package model it is plain
// Go: no files, no network, no terminal. YAML is
// generated with a YAML library (never string templates), so the SkyPilot
// and Kubernetes output always parses.
package launch
