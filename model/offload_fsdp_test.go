package model

import (
	"errors"
	"strings"
	"testing"
)

// FSDP CPU offload (OffloadParams with fsdp) moves the parameter shard,
// the gradient shard and the optimizer states to the host and steps on the
// CPU (torch/distributed/fsdp/api.py CPUOffload; fsdpCPUOffload). Hand-
// worked for Llama 3.1 8B under the fsdp-mixed recipe with AdamW: shard
// 4 B weights + 4 B gradients + 8 B moments per parameter over dp ranks;
// the CPU for-loop Adam's one temporary is the largest parameter, the
// 128256 × 4096 embedding, at 4 B: 2,101,346,304 B. The GPU keeps what is
// gathered (two blocks and the root unit in bf16), unchanged by offload;
// on one GPU, where nothing is sharded, the same.
func TestFSDPCPUOffload(t *testing.T) {
	const temp = 128256 * 4096 * 4.0
	for _, tt := range []struct {
		name      string
		gpus, acc int
	}{
		{"8 GPUs", 8, 1},
		{"2 GPUs, accumulation 4", 2, 4},
		{"one GPU", 1, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := Workload{Settings: Settings{Task: TaskFinetune, Precision: AMPBF16, Optimizer: AdamW, MicroBatch: 1, SeqLen: 512,
				GradAccum: tt.acc, GPUs: tt.gpus, Strategy: FSDP, Checkpointing: Bool(true)}, Model: llama31_8B}
			base, off := withSwitches(t, w, Switches{OffloadParams: true})
			if base.Recipe != RecipeFSDPMixed {
				t.Fatalf("recipe %s, want fsdp-mixed", base.Recipe)
			}
			p, dp := base.Params, float64(tt.gpus)
			if got, want := off.States.HostOffload, (4+4+8)*p/dp+temp; !near(got, want, 1e-12) {
				t.Errorf("host RAM %.6g B per GPU, want %.6g", got, want)
			}
			if m := off.States; m.Weights != 0 || m.Gradients != 0 || m.OptimizerStates != 0 {
				t.Errorf("model states left on the GPU: weights %.4g, gradients %.4g, optimizer %.4g B", m.Weights, m.Gradients, m.OptimizerStates)
			}
			gathered := 2 * gatheredParams(&w.Model, RecipeFSDPMixed, true, 1)
			if got := off.States.Gathered; !near(got, gathered, 1e-12) {
				t.Errorf("gathered %.6g B, want %.6g (two blocks and the root unit in bf16)", got, gathered)
			}
			if off.Memory.Total() >= base.Memory.Total() {
				t.Errorf("GPU total %.4g B with offload, not below %.4g", off.Memory.Total(), base.Memory.Total())
			}
			if got := optimizerStepBytes(&off.Workload); got != 0 {
				t.Errorf("GPU optimizer step moves %.4g B; FSDP's CPU offload steps on the CPU", got)
			}
			// Per step: the fp32 shard H2D before the forward and the
			// backward all-gather, the fp32 gradient shard D2H, each micro-batch.
			h2d, d2h := hostTransferBytes(&off.Workload)
			if want := float64(tt.acc) * 2 * 4 * p / dp; !near(h2d, want, 1e-12) {
				t.Errorf("host to device %.6g B per step, want %.6g", h2d, want)
			}
			if want := float64(tt.acc) * 4 * p / dp; !near(d2h, want, 1e-12) {
				t.Errorf("device to host %.6g B per step, want %.6g", d2h, want)
			}
		})
	}
}

// Activation offload (Unsloth's offloaded gradient checkpointing) moves
// each block's checkpointed input to the host and keeps one on the GPU.
// Hand-worked for a 4-layer decoder, h = 64, s = 128, b = 2, in pure bf16
// (the residual stream at 2 B): one input 2·128·2·64 = 32,768 B, four of
// them 131,072 B in host RAM; at the forward's end the GPU holds
// 131,072 − 32,768 = 98,304 B fewer; the step copies the four out and back.
// Under autocast the residual stream is fp32: twice as much.
func TestOffloadActivations(t *testing.T) {
	tiny := Architecture{Family: FamilyDecoder, Layers: 4, Hidden: 64, Heads: 4, FFN: 256, Vocab: 1000, GatedMLP: true, Norm: RMSNorm}
	for _, tt := range []struct {
		name string
		prec Precision
		one  float64 // bytes of one block input
	}{
		{"pure bf16", BF16, 2 * 128 * 2 * 64},
		{"autocast bf16", AMPBF16, 4 * 128 * 2 * 64},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := Workload{Settings: Settings{Task: TaskFinetune, Precision: tt.prec, Optimizer: AdamW, MicroBatch: 2, SeqLen: 128, GradAccum: 3,
				Checkpointing: Bool(true)}, Model: tiny}
			w.Defaults()
			if err := w.Validate(); err != nil {
				t.Fatal(err)
			}
			on := w
			on.OffloadActivations = true
			var bOut, oOut [3]PhaseMemory
			var bStates, oStates Memory
			phases(&w, &bOut, &bStates)
			phases(&on, &oOut, &oStates)
			if got, want := oStates.HostOffload-bStates.HostOffload, 4*tt.one; got != want {
				t.Errorf("host RAM %.0f B, want %.0f", got, want)
			}
			for i := range 2 { // forward end, backward: the blocks' inputs are alive
				if got, want := bOut[i].Memory.Activations-oOut[i].Memory.Activations, 3*tt.one; got != want {
					t.Errorf("%s: %.0f B fewer activations on the GPU, want %.0f", bOut[i].Phase, got, want)
				}
			}
			h2d, d2h := hostTransferBytes(&on)
			if want := 3 * 4 * tt.one; h2d != want || d2h != want {
				t.Errorf("copies per step %.0f B in, %.0f B out; want %.0f each (3 micro-batches × 4 inputs)", h2d, d2h, want)
			}
		})
	}
}

// The copies are timed over a PCIe card's host link at half the catalog's
// bidirectional x16 figure, the larger direction setting the time; a GPU
// whose catalog interconnect is NVLink has no host figure and is not timed.
func TestHostTransferSeconds(t *testing.T) {
	w := Workload{Settings: Settings{Task: TaskFinetune, Precision: AMPBF16, Optimizer: AdamW, MicroBatch: 1, SeqLen: 512,
		GradAccum: 1, GPUs: 2, Strategy: FSDP, Checkpointing: Bool(true), Switches: Switches{OffloadParams: true}}, Model: llama31_8B}
	w.Defaults()
	p := w.Model.ParamCount()
	gen4 := &GPU{Interconnect: "pcie", InterconnectGBps: 64}
	// 2 × 4 B × p / 2 ranks to the GPU, the larger direction, at 32 GB/s.
	if got, want := hostTransferSeconds(&w, gen4), 4*p/32e9; !near(got, want, 1e-12) {
		t.Errorf("PCIe Gen4 card: %.6g s, want %.6g", got, want)
	}
	if got := hostTransferSeconds(&w, &GPU{Interconnect: "nvlink", InterconnectGBps: 600}); got != 0 {
		t.Errorf("NVLink part: %.4g s, want 0 (no host-link figure)", got)
	}
}

// What each switch refuses, and why: FSDP has no optimizer-only offload
// (CPUOffload has one field, offload_params), FSDP offload is torch's,
// and activation offload moves checkpointed inputs, so it needs training,
// checkpointing and a transformer shape.
func TestFSDPOffloadRules(t *testing.T) {
	ok := Settings{Task: TaskFinetune, GPUs: 8, Strategy: FSDP, Checkpointing: Bool(true)}
	with := func(f func(*Settings)) Settings { s := ok; f(&s); return s }
	for _, tt := range []struct {
		name, field, says string // says: part of the message, "" when valid
		s                 Settings
		m                 Architecture
	}{
		{"fsdp params", "", "", with(func(s *Settings) { s.OffloadParams = true }), llama31_8B},
		{"fsdp params one GPU", "", "", with(func(s *Settings) { s.OffloadParams, s.GPUs = true, 1 }), llama31_8B},
		{"fsdp optimizer", "offload_optimizer", "set offload_params", with(func(s *Settings) { s.OffloadOptimizer = true }), llama31_8B},
		{"fsdp params jax", "offload_params", "torch FSDP", with(func(s *Settings) { s.OffloadParams, s.Framework = true, JAX }), llama31_8B},
		{"params ddp", "offload_params", "zero3 (DeepSpeed) or fsdp", with(func(s *Settings) { s.OffloadParams, s.Strategy = true, DDP }), llama31_8B},
		{"activations", "", "", with(func(s *Settings) { s.OffloadActivations = true }), llama31_8B},
		{"activations with everything", "", "", with(func(s *Settings) { s.OffloadActivations, s.OffloadParams = true, true }), llama31_8B},
		{"activations zero3", "", "", with(func(s *Settings) { s.OffloadActivations, s.Strategy = true, ZeRO3 }), llama31_8B},
		{"activations no checkpointing", "offload_activations", "turn on checkpointing", with(func(s *Settings) { s.OffloadActivations, s.Checkpointing = true, Bool(false) }), llama31_8B},
		{"activations inference", "offload_activations", "only in training", Settings{Task: TaskInference, Checkpointing: Bool(true), Switches: Switches{OffloadActivations: true}}, llama31_8B},
		{"activations cnn", "offload_activations", "transformer shape", with(func(s *Settings) { s.OffloadActivations, s.GPUs, s.Strategy = true, 1, Single }), resnet50},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := Workload{Settings: tt.s, Model: tt.m}
			w.Defaults()
			err := w.Validate()
			var fe *FieldError
			switch {
			case tt.field == "" && err != nil:
				t.Errorf("Validate() = %v, want valid", err)
			case tt.field == "":
			case !errors.As(err, &fe) || fe.Field != tt.field:
				t.Errorf("Validate() = %v, want a FieldError on %s", err, tt.field)
			case !strings.Contains(fe.Msg.String(), tt.says):
				t.Errorf("message %q does not say %q", fe.Msg.String(), tt.says)
			}
		})
	}
}

// The copies run under the compute (side streams): the step grows only by
// what does not fit, and FSDP's CPU step leaves the GPU's optimizer pass
// out. For Llama 3.1 8B on two L40S-like PCIe Gen4 cards the shard's two
// copies (2 × 4 B × p / 2 = 32 GB) take 1 s at 32 GB/s, longer than the
// compute of 1 × 512 tokens, so the excess shows; a micro-batch of
// 8 × 4096 tokens (64× the compute, the same copies) hides them.
func TestHostCopiesOverlapCompute(t *testing.T) {
	g := &GPU{Name: "PCIe Gen4 card", Architecture: "ada", ComputeCapability: "8.9", MemoryGiB: 48, MemoryBandwidthGBps: 864,
		FP32TFLOPS: 91.6, TF32TFLOPS: 183, FP16TFLOPS: 362.05, BF16TFLOPS: 362.05, Interconnect: "pcie", InterconnectGBps: 64}
	for _, tt := range []struct {
		name    string
		mb, seq int
		exposed bool
	}{
		{"short step", 1, 512, true},
		{"long step", 8, 4096, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := Workload{Settings: Settings{Task: TaskFinetune, Precision: AMPBF16, Optimizer: AdamW, MicroBatch: tt.mb, SeqLen: tt.seq,
				GradAccum: 1, GPUs: 2, Strategy: FSDP, Checkpointing: Bool(true)}, Model: llama31_8B}
			base, off := withSwitchesOn(t, w, g, Switches{OffloadParams: true})
			h := DefaultHost(g, 2)
			bStep, comm := base.stepTime(g, h)
			oStep, _ := off.stepTime(g, h)
			opt := optimizerStepBytes(&base.Workload) / (g.MemoryBandwidthGBps * 1e9 * MBU)
			compute := bStep - comm - opt
			copies := hostTransferSeconds(&off.Workload, g)
			if want := compute + comm + max(copies-compute, 0); !near(oStep, want, 1e-9) {
				t.Errorf("step %.6g s with offload, want %.6g (compute %.4g, copies %.4g, comm %.4g)", oStep, want, compute, copies, comm)
			}
			if got := copies > compute; got != tt.exposed {
				t.Errorf("copies %.4g s vs compute %.4g s: exposed %v, want %v", copies, compute, got, tt.exposed)
			}
		})
	}
}

// withSwitchesOn computes w on g as it is and with switches on.
func withSwitchesOn(t *testing.T, w Workload, g *GPU, on Switches) (base, switched Estimate) {
	t.Helper()
	base, err := Compute(w, g)
	if err != nil {
		t.Fatal(err)
	}
	w.Switches = on
	if switched, err = Compute(w, g); err != nil {
		t.Fatal(err)
	}
	return base, switched
}
