package serve

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestWeightBytesUnconverted: the linears a quantized checkpoint leaves
// unconverted (model.Architecture.UnquantizedAttnLayers, …MLPLayers) are
// costed at 2 bytes, the rest at the format's. Hand-worked on 4 layers,
// hidden 1024, 8 query and 2 KV heads of 128, gated MLP of 4096, vocab
// 1000, untied: attention 2·1024·1024 + 2·1024·256 = 2,621,440 per layer,
// MLP 3·1024·4096 = 12,582,912; linears 60,817,408; embeddings, head and
// norms 2·1,024,000 + 9·1024 = 2,057,216 at 2 bytes = 4,114,432.
func TestWeightBytesUnconverted(t *testing.T) {
	base := model.Architecture{Family: model.FamilyDecoder, Layers: 4, Hidden: 1024, Heads: 8, KVHeads: 2, HeadDim: 128,
		FFN: 4096, GatedMLP: true, Vocab: 1000, Norm: model.RMSNorm}
	for _, tt := range []struct {
		name      string
		f         WeightFormat
		attn, mlp float64
		want      float64
	}{
		{"fp8, every linear", WeightFP8, 0, 0, 60_817_408 + 4_114_432},
		{"fp8, attention kept bf16 (Llama 3.1 405B FP8)", WeightFP8, 4, 0, (60_817_408 - 10_485_760) + 2*(2_057_216+10_485_760)},
		{"fp8, one k_proj kept", WeightFP8, 0.1, 0, 60_817_408 - 262_144 + 2*(2_057_216+262_144)},
		{"fp8, one MLP and a third kept", WeightFP8, 0, 4.0 / 3, 60_817_408 - 16_777_216 + 2*(2_057_216+16_777_216)},
		{"bf16: nothing to keep", WeightBF16, 4, 0, 2 * (60_817_408 + 2_057_216)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := base
			a.UnquantizedAttnLayers, a.UnquantizedMLPLayers = tt.attn, tt.mlp
			if a.ParamCount() != 62_874_624 {
				t.Fatalf("ParamCount %v, want the hand count 62,874,624", a.ParamCount())
			}
			if got := WeightBytes(&a, tt.f); math.Abs(got-tt.want) > 0.5 {
				t.Errorf("WeightBytes = %.0f, want %.0f", got, tt.want)
			}
		})
	}
}
