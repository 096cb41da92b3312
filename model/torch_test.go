package model

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestParseTorchVersion: releases as pip prints them, the patch ignored;
// anything else is refused with the form it wants.
func TestParseTorchVersion(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want TorchVersion
		ok   bool
	}{
		{"2.10", TorchVersion{2, 10}, true},
		{" 1.13 ", TorchVersion{1, 13}, true},
		{"2.4.1", TorchVersion{2, 4}, true},
		{"1.6", TorchVersion{1, 6}, true},
		{"1.5", TorchVersion{}, false}, // before torch.cuda.amp
		{"2", TorchVersion{}, false},
		{"2.x", TorchVersion{}, false},
		{"2.4.1.0", TorchVersion{}, false},
		{"+2.4", TorchVersion{}, false},
		{"2.-1", TorchVersion{}, false},
		{"10.0", TorchVersion{}, false},
		{"", TorchVersion{}, false},
	} {
		got, err := ParseTorchVersion(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseTorchVersion(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "major.minor") && !strings.Contains(err.Error(), "or later") {
			t.Errorf("ParseTorchVersion(%q): %v does not say what it wants", tt.in, err)
		}
	}
}

// FuzzParseTorchVersion: user input never panics, and what parses prints
// back as itself.
func FuzzParseTorchVersion(f *testing.F) {
	for _, s := range []string{"2.10", "1.13.1", "", "2.", ".4", "99999999999999999999.1", "1.\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseTorchVersion(s)
		if err != nil {
			if !utf8.ValidString(err.Error()) {
				t.Fatalf("error is not UTF-8: %q", err)
			}
			return
		}
		if w, err := ParseTorchVersion(v.String()); err != nil || w != v {
			t.Fatalf("%q parses to %v, which reads back as %v, %v", s, v, w, err)
		}
	})
}

// TestTorchBehaviours: what each release switches, by hand from
// TorchVersion's list: the CUDA context (eager before 1.13), fused
// attention by default (from 2.0), and the unset release being the
// current stable one.
func TestTorchBehaviours(t *testing.T) {
	for _, tt := range []struct {
		v       TorchVersion
		context float64
		flash   bool
	}{
		{TorchVersion{1, 10}, CUDAContextEagerBytes, false},
		{TorchVersion{1, 13}, CUDAContextBytes, false},
		{TorchVersion{2, 0}, CUDAContextBytes, true},
		{TorchVersion{}, CUDAContextBytes, true},
	} {
		w := Workload{Settings: Settings{Torch: tt.v}, Model: Architecture{Family: FamilyDecoder, Layers: 2, Hidden: 64, Heads: 4, FFN: 256, Vocab: 100}}
		w.Defaults()
		if got := cudaContextBytes(&w); got != tt.context {
			t.Errorf("torch %v: CUDA context %.0f B, want %.0f B", tt.v, got, tt.context)
		}
		if w.Flash() != tt.flash {
			t.Errorf("torch %v: flash attention by default %v, want %v", tt.v, w.Flash(), tt.flash)
		}
		if tt.v.IsZero() && w.Torch != DefaultTorch {
			t.Errorf("unset torch defaults to %v, want %v", w.Torch, DefaultTorch)
		}
	}
	if tr, err := ParseTrainer("LitGPT"); err != nil || tr != TrainerLitGPT {
		t.Errorf("ParseTrainer(LitGPT) = %v, %v", tr, err)
	}
	if _, err := ParseTrainer("keras"); err == nil {
		t.Error("ParseTrainer(keras) accepted")
	}
}

// TestZeroGradPlacement: zeroing after the forward keeps the previous
// step's gradients (fp32: 4 B per parameter) alive at the forward's end;
// PyTorch 2.x's set_to_none then frees them before backward, while 1.x
// keeps them (as zeros) at every phase whatever the placement.
func TestZeroGradPlacement(t *testing.T) {
	for _, tt := range []struct {
		v          TorchVersion
		zg         ZeroGrad
		fwd, bwdSt float64 // gradient bytes per parameter at forward end, at backward start
	}{
		{TorchVersion{2, 4}, "", 0, 0},
		{TorchVersion{2, 4}, ZeroGradAfterStep, 0, 0},
		{TorchVersion{2, 4}, ZeroGradBeforeBackward, 4, 0},
		{TorchVersion{1, 10}, ZeroGradAfterStep, 4, 4},
		{TorchVersion{1, 10}, ZeroGradBeforeBackward, 4, 4},
	} {
		w := Workload{Settings: Settings{Torch: tt.v, ZeroGrad: tt.zg, Task: TaskFinetune, Precision: FP32, Optimizer: Adam, GPUs: 1, TP: 1},
			Model: Architecture{Family: FamilyDecoder, Layers: 2, Hidden: 64, Heads: 4, FFN: 256, Vocab: 100}}
		w.Defaults()
		var out [3]PhaseMemory
		var states Memory
		phases(&w, &out, &states)
		p := w.Model.ParamCount()
		if got := out[0].Memory.Gradients; got != tt.fwd*p {
			t.Errorf("torch %v %q: forward-end gradients %.0f B, want %.0f B", tt.v, tt.zg, got, tt.fwd*p)
		}
		s := newStepShape(&w)
		act := trainingActivations(&w, s.r)
		// backward start is the forward end plus the loss and block gradients;
		// a larger backward end (all gradients, no activations) may be reported instead.
		if out[1].Memory.Activations > 0 && out[1].Memory.Gradients != tt.bwdSt*p {
			t.Errorf("torch %v %q: backward-start gradients %.0f B, want %.0f B (activations %.0f)", tt.v, tt.zg, out[1].Memory.Gradients, tt.bwdSt*p, act.blocks)
		}
	}
	if z, err := ParseZeroGrad("Before-Backward"); err != nil || z != ZeroGradBeforeBackward {
		t.Errorf("ParseZeroGrad(Before-Backward) = %v, %v", z, err)
	}
	if _, err := ParseZeroGrad("sometimes"); err == nil {
		t.Error("ParseZeroGrad(sometimes) accepted")
	}
}

// vitL16CIFAR10 is torchvision's vit_l_16 with heads.head replaced by
// Linear(1024, 10), as rasbt/pytorch-memory-optim fine-tunes it. Its
// parameters by hand: patch conv 3·16·16·1024 + 1024 = 787,456; class
// token 1,024; positions 197·1024 = 201,728; per block two LayerNorms
// 4,096, in_proj 3072·1024 + 3072 = 3,148,800, out_proj 1,049,600, MLP
// 4,198,400 + 4,195,328: 12,596,224, × 24 = 302,309,376; final LayerNorm
// 2,048; head 10,250: 303,311,882.
func vitL16CIFAR10() Architecture {
	return Architecture{Family: FamilyViT, Layers: 24, Hidden: 1024, Heads: 16, FFN: 4096, Vocab: 10, Norm: LayerNorm,
		LinearBias: true, FusedQKV: true, LearnedPositions: 197, MaxPositions: 197, PatchSize: 16, Channels: 3, ImageSize: 224}
}

// TestForeachAdamIntermediates: the optimizer step's temporaries of
// torch.optim Adam on ViT-L/16 in pure bf16 (2 B per state value), by
// release: the for-loop before 2.0 holds the largest parameter's
// denominator (the MLP's 4096·1024 weight, 8,388,608 B); foreach on 2.0
// holds exp_avg_sq_sqrt and denom, 2 × 2 × 303,311,882 = 1,213,247,528
// B; from 2.1 one, 606,623,764 B (pytorch/pytorch#104780); fused none.
func TestForeachAdamIntermediates(t *testing.T) {
	for _, tt := range []struct {
		v    TorchVersion
		opt  Optimizer
		want float64
	}{
		{TorchVersion{1, 13}, Adam, 8_388_608},
		{TorchVersion{2, 0}, Adam, 1_213_247_528},
		{TorchVersion{2, 0}, AdamW, 1_213_247_528},
		{TorchVersion{2, 1}, Adam, 606_623_764},
		{TorchVersion{2, 4}, AdamW, 606_623_764},
		{TorchVersion{2, 4}, AdamWFused, 0},
	} {
		w := Workload{Settings: Settings{Torch: tt.v, Task: TaskFinetune, Precision: BF16, Optimizer: tt.opt, MicroBatch: 4, ImageSize: 224, GPUs: 1, TP: 1},
			Model: vitL16CIFAR10()}
		w.Defaults()
		if p := w.Model.ParamCount(); p != 303_311_882 {
			t.Fatalf("ViT-L/16 (10 classes): %.0f parameters, want 303,311,882", p)
		}
		var out [3]PhaseMemory
		var states Memory
		phases(&w, &out, &states)
		if got := out[2].Memory.Temporaries; got != tt.want {
			t.Errorf("torch %v %s: step temporaries %.0f B, want %.0f B", tt.v, tt.opt, got, tt.want)
		}
	}
}
