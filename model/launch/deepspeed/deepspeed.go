package deepspeed

import (
	"encoding/json"

	"github.com/gpuplan/gpuplan/model"
)

// dsConfig is the DeepSpeed config JSON: the fields of DeepSpeed's config
// reference that the plan decides (batch, precision, ZeRO stage); the rest
// keeps DeepSpeed's defaults. Field order is the JSON order.
type dsConfig struct {
	TrainBatch int       `json:"train_batch_size"`
	MicroBatch int       `json:"train_micro_batch_size_per_gpu"`
	GradAccum  int       `json:"gradient_accumulation_steps"`
	BF16       dsEnabled `json:"bf16"`
	FP16       dsEnabled `json:"fp16"`
	// Optimizer is set with ZeRO-Offload of an Adam optimizer only:
	// DeepSpeed then builds its own DeepSpeedCPUAdam for the offloaded
	// states. Without it the Hugging Face Trainer hands DeepSpeed a torch
	// AdamW, which the engine refuses with offload ("You are using
	// ZeRO-Offload with a client provided optimizer", deepspeed/runtime/
	// engine.py, unless zero_force_ds_cpu_optimizer is false). "auto"
	// values are filled from TrainingArguments (transformers
	// integrations/deepspeed.py, trainer_config_process).
	Optimizer *dsOptimizer `json:"optimizer,omitempty"`
	// ForceDSCPUOptimizer is zero_force_ds_cpu_optimizer, written false
	// with ZeRO-Offload of any other optimizer (SGD, Adafactor,
	// bitsandbytes'): the Trainer's --optim, the optimizer the estimate
	// priced, then steps the CPU partition. An AdamW section would run
	// DeepSpeed's CPU AdamW instead (and with --optim adafactor
	// transformers refuses to start: "--adafactor was passed, but also
	// found `optimizer` configured", deepspeed_optim_sched); the key
	// defaults to true (deepspeed/runtime/constants.py
	// ZERO_FORCE_DS_CPU_OPTIMIZER_DEFAULT), which refuses the Trainer's.
	ForceDSCPUOptimizer *bool      `json:"zero_force_ds_cpu_optimizer,omitempty"`
	ZeRO                dsZeROConf `json:"zero_optimization"`
}

type dsOptimizer struct {
	Type   string            `json:"type"`
	Params map[string]string `json:"params"`
}

type dsEnabled struct {
	Enabled bool `json:"enabled"`
}

type dsZeROConf struct {
	Stage               int  `json:"stage"`
	OverlapComm         bool `json:"overlap_comm"`
	ContiguousGradients bool `json:"contiguous_gradients"`
	// Stage3Gather16Bit saves a consolidated 16-bit model with stage 3,
	// so the checkpoint loads without DeepSpeed.
	Stage3Gather16Bit *bool `json:"stage3_gather_16bit_weights_on_model_save,omitempty"`
	// OffloadOptimizer is ZeRO-Offload: DeepSpeed's config reference,
	// zero_optimization.offload_optimizer.device "cpu" (DeepSpeedZeroOffloadOptimizerConfig).
	OffloadOptimizer *dsOffload `json:"offload_optimizer,omitempty"`
	// OffloadParam is ZeRO-3 parameter offload: offload_param.device "cpu"
	// (DeepSpeedZeroOffloadParamConfig, deepspeed/runtime/zero/offload_config.py).
	OffloadParam *dsOffload `json:"offload_param,omitempty"`
}

type dsOffload struct {
	Device string `json:"device"`
}

// Settings are what a DeepSpeed config depends on in a launch plan.
type Settings struct {
	Stage      int // ZeRO stage 1–3; 0 for strategies other than ZeRO
	MicroBatch int // per GPU
	GradAccum  int
	GPUs       int // data-parallel world size
	Precision  model.Precision
	// OffloadOptimizer is ZeRO-Offload of the optimizer states to host
	// RAM; OffloadParams ZeRO-3's offload of the parameters too.
	OffloadOptimizer, OffloadParams bool
	// Optimizer is the estimate's optimizer; with OffloadOptimizer it
	// picks DeepSpeed's CPU AdamW (AdamW, Adam, fused AdamW) or the
	// Trainer's own optimizer (the others). "" is AdamW.
	Optimizer model.Optimizer
}

// Config returns the DeepSpeed config JSON for a ZeRO stage:
// zero_optimization.stage, bf16 or fp16 enabled per the precision
// (amp-bf16, bf16 and fp8 → bf16; amp-fp16 → fp16; fp32 and tf32 →
// neither), the micro-batch and gradient accumulation, and
// train_batch_size = micro-batch × accumulation × GPUs, the identity
// DeepSpeed asserts (deepspeed/runtime/config.py, _batch_assertion) and
// Hugging Face's integration fills the same way
// (transformers integrations/deepspeed.py, trainer_config_process).
// It returns nil for stage 0.
func Config(s Settings) []byte {
	stage := s.Stage
	if stage == 0 {
		return nil
	}
	c := dsConfig{
		TrainBatch: s.MicroBatch * s.GradAccum * s.GPUs,
		MicroBatch: s.MicroBatch,
		GradAccum:  s.GradAccum,
		ZeRO:       dsZeROConf{Stage: stage, OverlapComm: true, ContiguousGradients: true},
	}
	switch s.Precision {
	case model.AMPBF16, model.BF16, model.FP8:
		c.BF16.Enabled = true
	case model.AMPFP16, model.FP16:
		c.FP16.Enabled = true
	}
	if stage == 3 {
		c.ZeRO.Stage3Gather16Bit = model.Bool(true)
	}
	if s.OffloadOptimizer {
		c.ZeRO.OffloadOptimizer = &dsOffload{Device: "cpu"}
		switch s.Optimizer {
		case "", model.AdamW, model.Adam, model.AdamWFused:
			// Adam is AdamW with the Trainer's weight_decay 0, which "auto" fills.
			c.Optimizer = &dsOptimizer{Type: "AdamW", Params: map[string]string{"lr": "auto", "betas": "auto", "eps": "auto", "weight_decay": "auto"}}
		default:
			c.ForceDSCPUOptimizer = model.Bool(false)
		}
	}
	if s.OffloadParams {
		c.ZeRO.OffloadParam = &dsOffload{Device: "cpu"}
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		panic(err) // a fixed struct of ints and bools always marshals
	}
	return append(b, '\n')
}
