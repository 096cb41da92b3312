package model

import (
	"errors"
	"math"
	"testing"
)

// llama8B is Llama 3.1 8B's shape (config.json), by hand.
func llama8B() Architecture {
	return Architecture{Family: FamilyDecoder, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336,
		Vocab: 128256, GatedMLP: true, Norm: RMSNorm, DefaultSeqLen: 2048, DefaultBatch: 1}
}

// TestOptimizerInBackward: with the step fused into backward (torchtune
// optimizer_in_bwd) one GPU holds one parameter's gradient, the largest:
// Llama 3.1 8B's embedding (or LM head), 128256 × 4096 = 525,336,576
// parameters, 2 bytes each in pure bf16 = 1,050,673,152 bytes, instead of
// all 8.03e9 × 2; the AdamW step on that one parameter makes one bf16
// foreach temporary of the same size, not 16 GB of them.
func TestOptimizerInBackward(t *testing.T) {
	w := Workload{Settings: Settings{Task: TaskFinetune, Precision: BF16, Optimizer: AdamW, MicroBatch: 1, SeqLen: 2048,
		Checkpointing: Bool(true)}, Model: llama8B()}
	off, err := Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.OptimizerInBackward = true
	on, err := Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	const one = 128256 * 4096 * 2.0
	if got := on.States.Gradients; got != one {
		t.Errorf("gradients held %.0f B, want one embedding's %.0f B", got, one)
	}
	if want := off.Params * 2; math.Abs(off.States.Gradients-want) > 1 {
		t.Errorf("without it: gradients %.0f B, want all %.0f B", off.States.Gradients, want)
	}
	step := on.Phases[2].Memory
	if step.Gradients != one || step.Temporaries != one {
		t.Errorf("step phase: gradients %.0f, temporaries %.0f B; want %.0f each", step.Gradients, step.Temporaries, one)
	}
	// Everything else is unchanged: weights and states; the peak drops by
	// at least all gradients but one.
	if on.States.Weights != off.States.Weights || on.States.OptimizerStates != off.States.OptimizerStates {
		t.Errorf("weights/states changed: %v/%v against %v/%v", on.States.Weights, on.States.OptimizerStates, off.States.Weights, off.States.OptimizerStates)
	}
	if drop := off.Memory.Total() - on.Memory.Total(); drop < off.Params*2-one-1 {
		t.Errorf("peak %.2f GiB against %.2f GiB without: dropped %.2f GiB, want at least %.2f", on.Memory.Total()/GiB, off.Memory.Total()/GiB, drop/GiB, (off.Params*2-one)/GiB)
	}
}

// TestOptimizerInBackwardRefused: torchtune refuses optimizer_in_bwd with
// gradient accumulation; DeepSpeed steps its own optimizer; the hook needs
// PyTorch 2.1; inference has no step. An adapter task that names no
// accumulation gets one micro-batch per step (not AdapterGradAccum).
func TestOptimizerInBackwardRefused(t *testing.T) {
	base := Workload{Settings: Settings{Task: TaskFinetune, Precision: BF16, Switches: Switches{OptimizerInBackward: true}}, Model: llama8B()}
	for name, f := range map[string]func(w *Workload){
		"grad accum 2": func(w *Workload) { w.GradAccum = 2 },
		"zero2":        func(w *Workload) { w.Strategy, w.GPUs = ZeRO2, 2 },
		"torch 2.0":    func(w *Workload) { w.Torch = TorchVersion{2, 0} },
		"inference":    func(w *Workload) { w.Task, w.Precision = TaskInference, BF16 },
	} {
		w := base
		f(&w)
		_, err := Compute(w, nil)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "optimizer_in_backward" {
			t.Errorf("%s: got %v, want a refusal of optimizer_in_backward", name, err)
		}
	}
	for name, f := range map[string]func(w *Workload){
		"single":    func(w *Workload) {},
		"fsdp":      func(w *Workload) { w.Strategy, w.GPUs = FSDP, 8 },
		"lora":      func(w *Workload) { w.Task = TaskLoRA },
		"torch 2.1": func(w *Workload) { w.Torch = TorchVersion{2, 1} },
	} {
		w := base
		f(&w)
		if _, err := Compute(w, nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestPagedOptimizerSplit: bitsandbytes' paged optimizers keep their
// states in CUDA unified memory (get_paged, cudaMallocManaged), outside the
// caching allocator: in the nvidia-smi total, not in torch's allocated or
// reserved figures, and not in what must stay resident for fit. PagedAdamW
// (optim_bits 32) keeps fp32 states whatever the parameter dtype: 8 bytes
// per parameter under pure bf16, where torch's AdamW keeps 4; the 8-bit one
// 2 + 2·4/256 bytes.
func TestPagedOptimizerSplit(t *testing.T) {
	for _, tt := range []struct {
		o   Optimizer
		bpp float64
	}{{PagedAdamW, 8}, {PagedAdamW8bit, 2 * (1 + 4.0/256)}, {AdamW, 4}} {
		w := Workload{Settings: Settings{Task: TaskFinetune, Precision: BF16, Optimizer: tt.o, MicroBatch: 1, SeqLen: 2048}, Model: llama8B()}
		e, err := Compute(w, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := e.Params * tt.bpp; math.Abs(e.States.OptimizerStates-want) > 1e-6*want {
			t.Errorf("%s: states %.4g B, want %.4g (%.4g B/param)", tt.o, e.States.OptimizerStates, want, tt.bpp)
		}
		paged := 0.0
		if tt.o.Paged() {
			paged = e.Memory.OptimizerStates
		}
		if e.PagedOptimizer != paged || e.TorchAllocated != e.Memory.Tensors()-paged || e.ResidentNeed() != e.Memory.Total()-paged {
			t.Errorf("%s: paged %.4g, allocated %.4g (tensors %.4g), resident %.4g (total %.4g)",
				tt.o, e.PagedOptimizer, e.TorchAllocated, e.Memory.Tensors(), e.ResidentNeed(), e.Memory.Total())
		}
		if paged > 0 && e.Fits(e.Memory.Total()-paged/2) != true {
			t.Errorf("%s: does not fit a GPU with room for all but half the paged states", tt.o)
		}
	}
	for _, s := range []string{"paged_adamw_8bit", "paged-adamw8bit", "paged_adamw_32bit", "paged-adamw"} {
		if _, err := ParseOptimizer(s); err != nil {
			t.Errorf("ParseOptimizer(%q): %v", s, err)
		}
	}
}
