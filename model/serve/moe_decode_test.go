package serve

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestExpectedExpertsTouched: E·(1 − (1 − k/E)^B), worked by hand.
func TestExpectedExpertsTouched(t *testing.T) {
	tests := []struct {
		name   string
		e, k   int
		tokens float64
		want   float64
		within float64
	}{
		// Qwen3-30B-A3B: 128 experts, top-8.
		{"one token reads its top-k", 128, 8, 1, 8, 1e-9},
		// 128·(1 − (120/128)²) = 128·(1 − 0.87890625) = 15.5
		{"two tokens", 128, 8, 2, 15.5, 1e-9},
		// (15/16)^64 = exp(64·ln 0.9375) = exp(−4.13046) = 0.016077: 128·0.983923 = 125.94
		{"64 tokens", 128, 8, 64, 125.94, 0.01},
		// gpt-oss-120b: 128 experts, top-4; (31/32)^10 = 0.72798: 128·0.27202 = 34.82
		{"gpt-oss-120b, 10 tokens", 128, 4, 10, 34.82, 0.01},
		// Mixtral: 8 experts, top-2; (3/4)^4 = 0.31640625: 8·0.68359375 = 5.46875
		{"mixtral, 4 tokens", 8, 2, 4, 5.46875, 1e-9},
		{"top-k of all", 8, 8, 3, 8, 0},
		{"dense", 1, 1, 64, 1, 0},
		{"no tokens", 128, 8, 0, 1, 0},
	}
	for _, tt := range tests {
		if got := ExpectedExpertsTouched(tt.e, tt.k, tt.tokens); math.Abs(got-tt.want) > tt.within {
			t.Errorf("%s: ExpectedExpertsTouched(%d, %d, %g) = %.4f, want %.4f", tt.name, tt.e, tt.k, tt.tokens, got, tt.want)
		}
	}
}

// qwen3MoE is Qwen3-30B-A3B's shape (config.json; data/catalog/models.toml).
func qwen3MoE() *model.Architecture {
	return &model.Architecture{Family: model.FamilyDecoder, Layers: 48, Hidden: 2048, Heads: 32, KVHeads: 4, HeadDim: 128,
		FFN: 768, GatedMLP: true, Vocab: 151936, Norm: model.RMSNorm, Experts: 128, ExpertsPerToken: 8}
}

// TestDecodeWeightBytes: a decode step of one token reads the dense
// weights and k of E experts; a large batch reads nearly all of them.
func TestDecodeWeightBytes(t *testing.T) {
	a := qwen3MoE()
	// Routed experts: 48 layers × 128 experts × 3 × 2048 × 768 = 28,991,029,248 weights, bf16.
	experts := 48.0 * 128 * 3 * 2048 * 768
	if got := RoutedExpertBytes(a, WeightBF16); math.Abs(got-2*experts) > 1 {
		t.Fatalf("RoutedExpertBytes = %.0f, want %.0f", got, 2*experts)
	}
	w := WeightBytes(a, WeightBF16)
	lookup := 2.0 * 151936 * 2048
	for _, tt := range []struct {
		tokens  float64
		touched float64 // experts of 128
	}{{1, 8}, {2, 15.5}, {1e6, 128}} {
		want := w - lookup - 2*experts*(1-tt.touched/128)
		if got := DecodeWeightBytes(a, WeightBF16, w, 1, 1, tt.tokens); math.Abs(got-want) > 1e3 {
			t.Errorf("%g tokens: DecodeWeightBytes = %.4g, want %.4g", tt.tokens, got, want)
		}
	}
	// Under TP 4 each GPU reads a quarter of the same.
	one := DecodeWeightBytes(a, WeightBF16, w, 1, 1, 1)
	if got := DecodeWeightBytes(a, WeightBF16, w/4, 4, 1, 1); math.Abs(got-one/4) > 1e3 {
		t.Errorf("TP 4: %.4g per GPU, want %.4g", got, one/4)
	}
	// A dense model reads everything but the gathered embedding rows.
	d := *a
	d.Experts, d.ExpertsPerToken = 0, 0
	dw := WeightBytes(&d, WeightBF16)
	if got := DecodeWeightBytes(&d, WeightBF16, dw, 1, 1, 1); math.Abs(got-(dw-lookup)) > 1 {
		t.Errorf("dense: %.4g, want %.4g", got, dw-lookup)
	}
}

// TestMoEDecodeFasterThanDense is issue 30/32: on one H100 at one request
// Qwen3-30B-A3B (3B active) was timed at 25.9 ms a token, reading all 30B
// weights, where a step reads its 8 experts a layer. Its weight read per
// step must be that of its active parameters, well under a third of all.
func TestMoEDecodeFasterThanDense(t *testing.T) {
	a := qwen3MoE()
	w := WeightBytes(a, WeightBF16)
	got := DecodeWeightBytes(a, WeightBF16, w, 1, 1, 1)
	active := 2 * (a.ActiveParams() - 151936*2048) // the active weights less the embedding lookup
	if math.Abs(got-active)/active > 0.001 {
		t.Errorf("one token reads %.4g bytes, want the active weights %.4g", got, active)
	}
	if got > w/3 {
		t.Errorf("one token reads %.4g of %.4g bytes", got, w)
	}
}

// TestFP8BlockScales: DeepSeek-V3's fp8 with 128×128 blocks stores one
// float32 per 16384 weights (vLLM fp8.py weight_scale_inv).
func TestFP8BlockScales(t *testing.T) {
	if got, want := fp8BlockBytesPerParam([2]int{128, 128}), 1+4.0/16384; got != want {
		t.Errorf("[128, 128]: %v bytes a weight, want %v", got, want)
	}
	if got := fp8BlockBytesPerParam([2]int{}); got != 1 {
		t.Errorf("no blocks: %v, want 1", got)
	}
	a := qwen3MoE()
	plain := WeightBytes(a, WeightFP8)
	a.WeightBlockSize = [2]int{128, 128}
	if got, want := WeightBytes(a, WeightFP8)-plain, a.LinearParams()*4/16384; math.Abs(got-want) > 1 {
		t.Errorf("block scales add %.0f bytes, want %.0f", got, want)
	}
}
