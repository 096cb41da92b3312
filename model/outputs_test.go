package model

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
)

// gpt2Large is GPT-2 large's shape (openai-community/gpt2-large config.json).
var gpt2Large = Architecture{Family: FamilyDecoder, Layers: 36, Hidden: 1280, Heads: 20, FFN: 5120, Vocab: 50257, Tied: true, Norm: LayerNorm,
	LinearBias: true, FusedQKV: true, LearnedPositions: 1024, MaxPositions: 1024, Dropout: true, ModelType: "gpt2", Activation: "gelu_new"}

// TestOutputsHeld: what a kept output holds after backward, worked by hand
// for GPT-2 large at batch 1, 1024 tokens, pure fp16 (p = 2): the logits
// 1024 · 50257 · 2 = 102,926,336 B, plus the cache per model type.
func TestOutputsHeld(t *testing.T) {
	const logits = 1024 * 50257 * 2
	tests := []struct {
		name string
		edit func(w *Workload)
		want float64
	}{
		// c_attn's output: 36 · 3 · 1280 · 2 · 1024 = 283,115,520
		{"gpt2", func(*Workload) {}, logits + 283115520},
		// SDPA saves the views, but after backward the cache alone holds them
		{"gpt2 sdpa", func(w *Workload) { w.FlashAttention = Bool(true) }, logits + 283115520},
		// query_key_value's output at 2 B and an fp32 key:
		// 36 · (3 · 1280 · 2 + 1280 · 4) · 1024 = 471,859,200
		{"gpt_neox", func(w *Workload) { w.Model.ModelType, w.Model.ParallelResidual = "gpt_neox", true }, logits + 471859200},
		// contiguous key and value: 36 · 2 · 1280 · 2 · 1024 = 188,743,680
		{"opt", func(w *Workload) { w.Model.ModelType, w.Model.Activation = "opt", "relu" }, logits + 188743680},
		// 4 KV heads of 64: 36 · 2 · 256 · 2 · 1024 = 37,748,736
		{"llama gqa", func(w *Workload) {
			w.Model.ModelType, w.Model.Norm, w.Model.GatedMLP, w.Model.KVHeads, w.Model.LinearBias, w.Model.Dropout = "llama", RMSNorm, true, 4, false, false
		}, logits + 37748736},
		{"checkpointing: no cache", func(w *Workload) { w.Checkpointing = Bool(true) }, logits},
		{"litgpt: logits only", func(w *Workload) { w.Trainer = TrainerLitGPT }, logits},
		{"chunked loss: no full logits", func(w *Workload) { w.Loss = LossChunked }, 283115520},
	}
	for _, tt := range tests {
		w := Workload{Settings: Settings{Task: TaskTrain, Precision: FP16, Optimizer: SGD, MicroBatch: 1, SeqLen: 1024, GPUs: 1, TP: 1,
			FlashAttention: Bool(false), Outputs: OutputsKept}, Model: gpt2Large}
		tt.edit(&w)
		w.Defaults()
		if got := outputsHeld(&w, 1024, 1, 2, 1); got != tt.want {
			t.Errorf("%s: outputsHeld %.0f, want %.0f", tt.name, got, tt.want)
		}
		if got := trainingActivations(&w, w.Recipe).kept; got != tt.want {
			t.Errorf("%s: trainingActivations kept %.0f, want %.0f", tt.name, got, tt.want)
		}
		w.Outputs = OutputsDropped
		if got := trainingActivations(&w, w.Recipe).kept; got != 0 {
			t.Errorf("%s dropped: kept %.0f, want 0", tt.name, got)
		}
	}
	// A fine-tuned encoder's classification head: nothing worth counting.
	enc := Workload{Settings: Settings{Task: TaskFinetune, Precision: FP16, Optimizer: SGD, MicroBatch: 8, SeqLen: 256, GPUs: 1, TP: 1, Outputs: OutputsKept},
		Model: Architecture{Family: FamilyEncoder, Layers: 6, Hidden: 768, Heads: 12, FFN: 3072, Vocab: 30522}}
	enc.Defaults()
	if got := outputsHeld(&enc, 256, 8, 2, 1); got != 0 {
		t.Errorf("encoder classifier: outputsHeld %.0f, want 0", got)
	}
}

// TestOutputsKeptPhases: a kept output adds the previous step's outputs at
// the forward end and the current step's at the optimizer step; the
// default (dropped) leaves every phase as it was.
func TestOutputsKeptPhases(t *testing.T) {
	const held = 1024*50257*2 + 283115520
	run := func(o Outputs) [3]PhaseMemory {
		w := Workload{Settings: Settings{Task: TaskTrain, Precision: FP16, Optimizer: SGD, MicroBatch: 1, SeqLen: 1024, GPUs: 1, TP: 1,
			FlashAttention: Bool(false), Outputs: o}, Model: gpt2Large}
		w.Defaults()
		var out [3]PhaseMemory
		var states Memory
		phases(&w, &out, &states)
		return out
	}
	d, k, def := run(OutputsDropped), run(OutputsKept), run("")
	if def != d {
		t.Errorf("default phases %+v differ from dropped %+v", def, d)
	}
	if got := k[0].Memory.Activations - d[0].Memory.Activations; got != held {
		t.Errorf("forward end: kept adds %.0f B, want %.0f", got, float64(held))
	}
	if got := k[2].Memory.Activations - d[2].Memory.Activations; got != held {
		t.Errorf("optimizer step: kept adds %.0f B, want %.0f", got, float64(held))
	}
	if k[1].Memory.Activations < d[1].Memory.Activations+283115520 {
		t.Errorf("backward: kept %.0f B, want at least dropped %.0f + the cache beyond the saved tensors", k[1].Memory.Activations, d[1].Memory.Activations)
	}
}

// TestOutputsHeldFixture holds outputsHeld's cache term to
// data/testdata/calibration/saved/outputs_kept.json: the storages the
// returned present references after backward, per token per layer in units
// of 2h bytes (pure bf16), and the fixture's checks of the logits' dtype
// and lifetime.
func TestOutputsHeldFixture(t *testing.T) {
	raw, err := os.ReadFile("../data/testdata/calibration/saved/outputs_kept.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Hidden, Heads int
		KVHeads       int `json:"kv_heads"`
		Blocks        map[string]map[string]struct {
			PerTokenH float64 `json:"per_token_h"`
		}
		Logits struct {
			PerLogit     int  `json:"per_logit"`
			SavedForLoss bool `json:"saved_for_loss"`
		}
		Alive struct{ Plain, Trainer bool } `json:"alive_at_next_forward"`
	}
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	if fx.Logits.PerLogit != 2 || fx.Logits.SavedForLoss || !fx.Alive.Plain || fx.Alive.Trainer {
		t.Errorf("fixture logits %+v, alive %+v: want 16-bit logits no loss node saves, alive in a plain loop only", fx.Logits, fx.Alive)
	}
	base := Architecture{Family: FamilyDecoder, Layers: 1, Hidden: fx.Hidden, Heads: fx.Heads, FFN: 4 * fx.Hidden, Vocab: 8, Norm: LayerNorm, LinearBias: true}
	arch := map[string]func(a *Architecture){
		"gpt2":     func(a *Architecture) { a.ModelType = "gpt2" },
		"gpt_neox": func(a *Architecture) { a.ModelType = "gpt_neox" },
		"opt":      func(a *Architecture) { a.ModelType = "opt" },
		"llama_eager": func(a *Architecture) {
			a.ModelType, a.KVHeads, a.Norm, a.GatedMLP, a.LinearBias = "llama", fx.KVHeads, RMSNorm, true, false
		},
	}
	for name, seqs := range fx.Blocks {
		edit, ok := arch[name]
		if !ok {
			t.Errorf("fixture block %q has no architecture here", name)
			continue
		}
		a := base
		edit(&a)
		w := Workload{Settings: Settings{Task: TaskTrain, Precision: BF16, Optimizer: SGD, MicroBatch: 1, SeqLen: 1, GPUs: 1, TP: 1,
			FlashAttention: Bool(false), Loss: LossChunked, Outputs: OutputsKept}, Model: a}
		w.Defaults()
		got := outputsHeld(&w, 1, 1, 2, 1) / (2 * float64(fx.Hidden))
		for s, v := range seqs {
			if got != v.PerTokenH {
				t.Errorf("%s s=%s: outputsHeld %.3f per token (units of 2h B), fixture %.3f", name, s, got, v.PerTokenH)
			}
		}
	}
}

func TestParseOutputs(t *testing.T) {
	for in, want := range map[string]Outputs{"kept": OutputsKept, "Plain-Loop": OutputsKept, "dropped": OutputsDropped, "trainer": OutputsDropped} {
		if got, err := ParseOutputs(in); err != nil || got != want {
			t.Errorf("ParseOutputs(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseOutputs("sometimes"); err == nil {
		t.Error("ParseOutputs(sometimes) accepted")
	}
}

// TestLogitsLivenessFixture holds logitsBytes to the bytes per logit the
// CPU run of data/testdata/calibration/saved/outputs_kept.py counted
// alive around the loss ("loss_liveness", b=2 s=64 v=8192): at the loss
// (fwd), as backward starts (fwd less the transient and, unless the loop
// keeps its outputs, the returned logits) and at the loss backward's peak
// (that plus bwd). The fixture rounds to 0.01 B and counts whole pages.
func TestLogitsLivenessFixture(t *testing.T) {
	raw, err := os.ReadFile("../data/testdata/calibration/saved/outputs_kept.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Loss map[string]json.RawMessage `json:"loss_liveness"`
	}
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	impl := map[string]Loss{"hf-fp32": LossHFUpcast, "native": LossNative}
	bytes := map[string]float64{"bfloat16": 2, "float32": 4}
	n := 0
	for key, msg := range fx.Loss {
		if key == "note" {
			continue
		}
		var c struct {
			Fwd   float64 `json:"forward_peak"`
			Start float64 `json:"backward_start"`
			Peak  float64 `json:"backward_peak"`
		}
		if err := json.Unmarshal(msg, &c); err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(key) // "hf-fp32 bfloat16 dropped"
		loss, p := impl[f[0]], bytes[f[1]]
		if len(f) != 3 || loss == "" || p == 0 {
			t.Fatalf("fixture case %q: want loss dtype kept|dropped", key)
		}
		fwd, bwd, transient, own := logitsBytes(1, 1, 1, p, 1, loss)
		start := fwd - transient - own
		if f[2] == "kept" {
			start += own
		}
		for _, x := range [][2]float64{{fwd, c.Fwd}, {start, c.Start}, {start + bwd, c.Peak}} {
			if math.Abs(x[0]-x[1]) > 0.05 {
				t.Errorf("%s: logitsBytes (fwd %v, start %v, peak %v) B per logit, fixture (%v, %v, %v)", key, fwd, start, start+bwd, c.Fwd, c.Start, c.Peak)
				break
			}
		}
		n++
	}
	if n != 8 {
		t.Errorf("fixture has %d loss cases, want 8", n)
	}
}
