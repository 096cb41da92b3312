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
// model.Recommend returned, then call Render with a Format; the probe
// script (FormatProbe) is model/launch/probescript's, which builds on
// this package. It imports model, model/show, model/config, model/serve,
// model/decide (the spot checkpoint interval a spot training file saves
// at, resume.go) and the packages below it: model/launch/stack, model/launch/cloud (the
// providers' accelerator names and networks) and model/launch/deepspeed
// (ds_config.json).
// Like package model it is plain
// Go: no files, no network, no terminal. YAML is
// generated with a YAML library (never string templates), so the SkyPilot
// and Kubernetes output always parses.
package launch
