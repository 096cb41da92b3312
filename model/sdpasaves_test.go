package model

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestSDPASavesFixture holds the block model under SDPA (flash = true) to
// what autograd saved for one GPT-NeoX block with the kernel's saved tensors
// as torch 2.2 lists them (data/testdata/calibration/saved/sdpa_saved.py,
// hidden 64, 4 heads, MLP 256, batch 2, sequence 32 and 64): alpha, bytes
// per s·b·h with the input, within 1.2 B (what the model leaves out: the
// norms' statistics, the kernel's logsumexp, 4·a B per token, and the
// gathered rotary tables), beta 0 exactly; and cacheHeld to the bytes the
// returned cache kept that no saved tensor shares, exactly.
func TestSDPASavesFixture(t *testing.T) {
	raw, err := os.ReadFile("../data/testdata/calibration/saved/sdpa_saved.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Batch, Hidden, Heads, FFN int
		SeqLens                   []int `json:"seq_lens"`
		Blocks                    map[string]map[string]struct {
			Alpha, Beta      float64
			PresentPerTokenH float64 `json:"present_per_token_h"`
		}
	}
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	a := Architecture{Family: FamilyDecoder, Layers: 1, Hidden: fx.Hidden, Heads: fx.Heads, FFN: fx.FFN, Vocab: 8,
		Norm: LayerNorm, LinearBias: true, ModelType: "gpt_neox", ParallelResidual: true, FusedQKV: true}
	b, h, heads := float64(fx.Batch), float64(fx.Hidden), float64(fx.Heads)
	for _, tt := range []struct {
		variant string
		p       float64
		prec    Precision
	}{{"flash", 2, FP16}, {"efficient-fp32", 4, FP32}} {
		want, ok := fx.Blocks["gpt_neox"][tt.variant]
		if !ok {
			t.Fatalf("gpt_neox %s: not in the fixture", tt.variant)
		}
		w := Workload{Settings: Settings{Task: TaskTrain, Precision: tt.prec, FlashAttention: Bool(true)}, Model: a}
		w.Defaults()
		bytes := func(s float64) float64 {
			return a.blockActivation(s, s, b, tt.p, 1, true, false) + a.normExtra(s*b, tt.p, false) +
				w.implementationSaves(s, s, b, tt.p, 1, true, false, false)
		}
		s1, s2 := float64(fx.SeqLens[0]), float64(fx.SeqLens[1])
		y1, y2 := bytes(s1), bytes(s2)
		det := s1*b*h*heads*s2*s2*b - heads*s1*s1*b*s2*b*h
		alpha := (y1*heads*s2*s2*b - heads*s1*s1*b*y2) / det
		beta := (s1*b*h*y2 - s2*b*h*y1) / det
		if math.Abs(beta-want.Beta) > 1e-9 || alpha > want.Alpha || want.Alpha-alpha > 1.2 {
			t.Errorf("gpt_neox %s: model alpha %.3f beta %.3f, autograd saved %.3f and %.3f", tt.variant, alpha, beta, want.Alpha, want.Beta)
		}
		if got := cacheHeld(&w, s2, b, tt.p, 1) / (s2 * b * h); got != want.PresentPerTokenH {
			t.Errorf("gpt_neox %s: cacheHeld %.3g B per token per h, the cache kept %.3g", tt.variant, got, want.PresentPerTokenH)
		}
	}
}
