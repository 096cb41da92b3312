package model

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"
)

// TestBlockSavesFixture holds the block model (blockActivation, normExtra,
// autocastSoftmax, autocastRecasts, implementationSaves) to what autograd
// saved for one block of each Hugging Face family, measured by
// data/testdata/calibration/saved/saved_tensors.py at hidden 64, 4 heads,
// MLP 256, batch 2, sequence 32 and 64, in fp32, autocast bf16, pure bf16
// and pure fp16 (OPT upcasts its softmax there, 4 B per score more): the bytes per s·b·h (alpha, the
// input included) and per a·s²·b (beta). Beta must match exactly; alpha
// within 1.2 B, what the model leaves out: the norms' per-token statistics
// (LayerNorm's mean and rstd, RMSNorm's rsqrt: 8·2/64 = 0.25 B at most)
// and the rotary cos and sin tables, which the script builds per block and
// Hugging Face once per forward for all layers (2 tables × 16 × 4 B / 128
// = 1 B under autocast).
func TestBlockSavesFixture(t *testing.T) {
	raw, err := os.ReadFile("../data/testdata/calibration/saved/saved_tensors.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Batch, Hidden, Heads, FFN int
		SeqLens                   []int `json:"seq_lens"`
		Blocks                    map[string]map[string]struct {
			Alpha, Beta float64
			Torch2Alpha *float64 `json:"torch2_alpha"`
		}
	}
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	base := Architecture{Family: FamilyDecoder, Layers: 1, Hidden: fx.Hidden, Heads: fx.Heads, FFN: fx.FFN, Vocab: 8, Norm: LayerNorm, LinearBias: true}
	arch := map[string]Architecture{}
	with := func(f func(a *Architecture)) Architecture { a := base; f(&a); return a }
	arch["bert"] = with(func(a *Architecture) { a.Family, a.Dropout = FamilyEncoder, true })
	arch["distilbert"] = with(func(a *Architecture) { a.Family, a.Dropout, a.ModelType = FamilyEncoder, true, "distilbert" })
	arch["vit"] = with(func(a *Architecture) { a.Family = FamilyEncoder })
	arch["opt"] = with(func(a *Architecture) { a.Dropout, a.ModelType, a.Activation = true, "opt", "relu" })
	arch["gpt2"] = with(func(a *Architecture) {
		a.Dropout, a.ModelType, a.Activation, a.FusedQKV = true, "gpt2", "gelu_new", true
	})
	arch["gpt_neox"] = with(func(a *Architecture) { a.ModelType, a.ParallelResidual, a.FusedQKV = "gpt_neox", true, true })
	arch["llama_eager"] = with(func(a *Architecture) {
		a.ModelType, a.Norm, a.GatedMLP, a.KVHeads, a.LinearBias = "llama", RMSNorm, true, 2, false
	})
	modes := map[string]struct {
		p        float64
		autocast bool
		prec     Precision
	}{"fp32": {4, false, FP32}, "autocast-bf16": {2, true, AMPBF16}, "bf16": {2, false, BF16}, "fp16": {2, false, FP16}}
	b := float64(fx.Batch)
	h, heads := float64(fx.Hidden), float64(fx.Heads)
	for name, a := range arch {
		for mode, m := range modes {
			want := fx.Blocks[name][mode]
			if want.Alpha == 0 {
				t.Fatalf("%s %s: not in the fixture", name, mode)
			}
			if want.Torch2Alpha != nil {
				want.Alpha = *want.Torch2Alpha
			}
			w := Workload{Settings: Settings{Task: TaskTrain, Precision: m.prec}, Model: a}
			bytes := func(s float64) float64 {
				x := a.blockActivation(s, s, b, m.p, 1, false, false) + a.normExtra(s*b, m.p, m.autocast) +
					w.implementationSaves(s, s, b, m.p, 1, false, false, m.autocast)
				if m.autocast {
					x += a.autocastSoftmax(s, s, b, 1, false, false) + autocastRecasts(&w, s*b, s*b, false)
				}
				return x
			}
			s1, s2 := float64(fx.SeqLens[0]), float64(fx.SeqLens[1])
			y1, y2 := bytes(s1), bytes(s2)
			// y = alpha·s·b·h + beta·a·s²·b at two lengths.
			det := s1*b*h*heads*s2*s2*b - heads*s1*s1*b*s2*b*h
			alpha := (y1*heads*s2*s2*b - heads*s1*s1*b*y2) / det
			beta := (s1*b*h*y2 - s2*b*h*y1) / det
			if math.Abs(beta-want.Beta) > 0.01 || math.Abs(alpha-want.Alpha) > 1.2 {
				t.Errorf("%s %s: alpha %.2f beta %.2f, autograd saved alpha %.2f beta %.2f", name, mode, alpha, beta, want.Alpha, want.Beta)
			}
		}
	}
}

// TestCacheHeld: GPT-2 large (36 layers, hidden 1280) in 16-bit, batch 1 ×
// 1024 tokens, eager attention, Hugging Face: the returned cache keeps each
// layer's c_attn output, 36 · 3 · 1280 · 1024 · 2 = 283,115,520 bytes, to the
// end of forward only; none under SDPA, with checkpointing (no cache), in
// LitGPT (no cache returned) or for a model whose attention saves the views
// (OPT). GPT-NeoX and Llama: data/testdata/calibration/saved/present_alive.json.
func TestCacheHeld(t *testing.T) {
	gpt2 := Architecture{Family: FamilyDecoder, Layers: 36, Hidden: 1280, Heads: 20, FFN: 5120, Vocab: 50257, Tied: true, Norm: LayerNorm,
		LinearBias: true, FusedQKV: true, LearnedPositions: 1024, MaxPositions: 1024, Dropout: true, ModelType: "gpt2", Activation: "gelu_new"}
	g := &GPU{Key: "g", Name: "G", MemoryGiB: 80, ComputeCapability: "8.0", FP32TFLOPS: 19.5, FP16TFLOPS: 312, BF16TFLOPS: 312, MemoryBandwidthGBps: 1555}
	base := Workload{Settings: Settings{Task: TaskTrain, Precision: FP16, Optimizer: SGD, MicroBatch: 1, SeqLen: 1024, GPUs: 1, FlashAttention: Bool(false)}, Model: gpt2}
	tests := []struct {
		name string
		edit func(w *Workload)
		want float64
	}{
		{"eager", func(*Workload) {}, 283115520},
		{"sdpa", func(w *Workload) { w.FlashAttention = Bool(true) }, 0},
		{"checkpointing", func(w *Workload) { w.Checkpointing = Bool(true) }, 0},
		{"litgpt", func(w *Workload) { w.Trainer = TrainerLitGPT }, 0},
		{"opt", func(w *Workload) { w.Model.ModelType, w.Model.Activation = "opt", "relu" }, 0},
		// GPT-NeoX keeps query_key_value's output through the value view:
		// the same 36 · 3 · 1280 · 1024 · 2 on this shape
		{"gpt_neox", func(w *Workload) { w.Model.ModelType, w.Model.ParallelResidual = "gpt_neox", true }, 283115520},
		// Under SDPA the cache's fp32 rotated key is saved by nothing (the
		// kernel saves its 16-bit cast): 36 · 4 · 1280 · 1024
		{"gpt_neox sdpa", func(w *Workload) {
			w.Model.ModelType, w.Model.ParallelResidual, w.FlashAttention = "gpt_neox", true, Bool(true)
		}, 188743680},
		// Llama with 4 KV heads of 64 (kvd 256): the rotated key and the
		// value view, 36 · 2 · 256 · 1024 · 2 = 37,748,736
		{"llama gqa", func(w *Workload) {
			w.Model.ModelType, w.Model.Norm, w.Model.GatedMLP, w.Model.KVHeads, w.Model.LinearBias, w.Model.Dropout = "llama", RMSNorm, true, 4, false, false
		}, 37748736},
	}
	for _, tt := range tests {
		w := base
		tt.edit(&w)
		w.Defaults()
		if got := cacheHeld(&w, 1024, 1, 2, 1); got != tt.want {
			t.Errorf("%s: cacheHeld %.0f, want %.0f", tt.name, got, tt.want)
		}
		e, err := Compute(w, g)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		// Forward end holds the cache; backward starts without it.
		act := trainingActivations(&e.Workload, e.Recipe)
		if act.cache != tt.want {
			t.Errorf("%s: trainingActivations cache %.0f, want %.0f", tt.name, act.cache, tt.want)
		}
		if tt.name == "checkpointing" {
			continue // backward recomputes: its own phase formula
		}
		// The logits, 1024 · 50257 = 51,463,168 of them, under Hugging
		// Face's fp32 loss: 16-bit logits, fp32 copy and log-softmax at
		// the forward's end, 10 B each = 514,631,680; backward starts with
		// the log-softmax alone (the Trainer drops the outputs, the copy
		// is the loss function's) and adds two fp32 gradients: 12 B each =
		// 617,558,016, more than any block's gradients here.
		fwd, bwd := e.Phases[0].Memory.Activations, e.Phases[1].Memory.Activations
		if want := act.blocks + 514631680 + tt.want; math.Abs(fwd-want) > 1 {
			t.Errorf("%s: forward-end activations %.0f, want %.0f", tt.name, fwd, want)
		}
		if want := act.blocks + 617558016; math.Abs(bwd-want) > 1 {
			t.Errorf("%s: backward activations %.0f, want %.0f (no cache, no logits)", tt.name, bwd, want)
		}
	}
}

// TestCacheHeldFixture holds cacheHeld to what the returned present kept
// alive beyond autograd's saved tensors in one block of each family
// (data/testdata/calibration/saved/present_alive.py, pure bf16, hidden 64,
// 4 heads, batch 2): per token, in units of h, exactly.
func TestCacheHeldFixture(t *testing.T) {
	raw, err := os.ReadFile("../data/testdata/calibration/saved/present_alive.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Batch, Hidden, Heads int
		KVHeads              int `json:"kv_heads"`
		Blocks               map[string]map[string]struct {
			PerTokenH float64 `json:"per_token_h"`
		}
	}
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	base := Architecture{Family: FamilyDecoder, Layers: 1, Hidden: fx.Hidden, Heads: fx.Heads, FFN: 4 * fx.Hidden, Vocab: 8, Norm: LayerNorm, LinearBias: true}
	llama := base
	llama.ModelType, llama.Norm, llama.GatedMLP, llama.LinearBias = "llama", RMSNorm, true, false
	arch := map[string]Architecture{"gpt2": base, "gpt_neox": base, "opt": base, "llama_eager": llama, "llama_eager_mha": llama}
	for name, a := range arch {
		switch name {
		case "llama_eager":
			a.KVHeads = fx.KVHeads
		case "llama_eager_mha":
		default:
			a.ModelType = name
		}
		runs := fx.Blocks[name]
		if len(runs) == 0 {
			t.Fatalf("%s: not in the fixture", name)
		}
		w := Workload{Settings: Settings{Task: TaskTrain, Precision: BF16, FlashAttention: Bool(false)}, Model: a}
		w.Defaults()
		for s, r := range runs {
			var sl float64
			if _, err := fmt.Sscan(s, &sl); err != nil {
				t.Fatal(err)
			}
			b, h := float64(fx.Batch), float64(fx.Hidden)
			if got := cacheHeld(&w, sl, b, 2, 1) / (sl * b * h * 2); got != r.PerTokenH {
				t.Errorf("%s s=%s: cacheHeld %.3g h per token, the present kept %.3g", name, s, got, r.PerTokenH)
			}
		}
	}
}

// TestMHAOutputCopy: torchvision's ViT-L/16 (torch.nn.MultiheadAttention)
// saves its fused attention output beside the output projection's input
// where the kernel's output is batch-first: one 197 × 1024 tensor per
// block and sample, 24 blocks: 2 B × 197 × 1024 × 24 = 9,682,944 B in 16
// bits, twice that in fp32 (memory-efficient kernel, every release);
// none with FlashAttention 2 (torch 2.2 on), none with eager attention
// (the softmax path saves no kernel output), none for the generic ViT.
func TestMHAOutputCopy(t *testing.T) {
	for _, tt := range []struct {
		prec  Precision
		torch TorchVersion
		mt    string
		flash bool
		want  float64 // bytes per sample beyond the generic ViT
	}{
		{BF16, TorchVersion{2, 0}, "torchvision_vit", true, 9_682_944},
		{BF16, TorchVersion{2, 1}, "torchvision_vit", true, 9_682_944},
		{AMPFP16, TorchVersion{2, 1}, "torchvision_vit", true, 9_682_944},
		{BF16, TorchVersion{2, 2}, "torchvision_vit", true, 0},
		{FP32, TorchVersion{2, 4}, "torchvision_vit", true, 19_365_888},
		{FP32, TorchVersion{2, 4}, "torchvision_vit", false, 0},
		{BF16, TorchVersion{2, 0}, "", true, 0},
	} {
		act := func(mt string) float64 {
			a := vitL16CIFAR10()
			a.ModelType = mt
			w := Workload{Settings: Settings{Torch: tt.torch, Task: TaskFinetune, Precision: tt.prec, Optimizer: Adam, MicroBatch: 1, ImageSize: 224, GPUs: 1, TP: 1, FlashAttention: Bool(tt.flash)},
				Model: a}
			w.Defaults()
			return trainingActivations(&w, w.TrainingRecipe()).blocks
		}
		if got := act(tt.mt) - act(""); got != tt.want {
			t.Errorf("%s torch %v %q flash %v: %.0f B per sample more than the generic ViT, want %.0f", tt.prec, tt.torch, tt.mt, tt.flash, got, tt.want)
		}
	}
}
