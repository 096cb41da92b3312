package model

import (
	"errors"
	"testing"
)

// Shapes with the features of 2025–2026 models, from their config.json
// files (see data/catalog/models.toml); the expected counts are the
// published ones where they are exact (KerasHub preset metadata,
// huggingface.js), else worked out by hand below.
var (
	// DeepSeek-V3: per layer, multi-head latent attention
	//   q_a_proj 7168·1536 + q_b_proj 1536·128·192       = 48,758,784
	//   kv_a_proj 7168·(512+64) + kv_b_proj 512·128·256  = 20,905,984
	//   o_proj 128·128·7168                             = 117,440,512
	//   q_a_layernorm 1536 + kv_a_layernorm 512 + 2 norms of 7168 = 16,384
	// = 187,121,664 × 61; MLP 3 × 7168 × 18432 in 3 dense layers, and
	// (256 + 1) × 3 × 7168 × 2048 + router 7168 × 256 in 58 MoE layers;
	// embeddings and the untied head 2 × 129280 × 7168 and the final norm:
	// 671,026,404,352 (README: 671B), active with 8 + 1 experts
	// 37,552,282,624 (README: 37B).
	deepseekV3 = Architecture{Family: FamilyDecoder, Layers: 61, Hidden: 7168, Heads: 128, KVHeads: 128, HeadDim: 192,
		VHeadDim: 128, QLoRARank: 1536, KVLoRARank: 512, RopeHeadDim: 64, FFN: 2048, GatedMLP: true, Vocab: 129280,
		Norm: RMSNorm, Experts: 256, ExpertsPerToken: 8, SharedExperts: 1, DenseLayers: 3, DenseFFN: 18432}
	// Llama 4 Maverick: 24 MoE layers of 128 + 1 shared experts (8192)
	// and 24 dense layers (16384); vision tower 871,932,416.
	llama4Maverick = Architecture{Family: FamilyDecoder, Layers: 48, Hidden: 5120, Heads: 40, KVHeads: 8, HeadDim: 128,
		FFN: 8192, GatedMLP: true, Vocab: 202048, Norm: RMSNorm, Experts: 128, ExpertsPerToken: 1, SharedExperts: 1,
		DenseLayers: 24, DenseFFN: 16384, VisionParams: 871932416}
	// Qwen3-30B-A3B: 128 experts of 768, q_norm and k_norm of 128.
	qwen3MoE = Architecture{Family: FamilyDecoder, Layers: 48, Hidden: 2048, Heads: 32, KVHeads: 4, HeadDim: 128,
		FFN: 768, GatedMLP: true, Vocab: 151936, Norm: RMSNorm, QKNorm: true, Experts: 128, ExpertsPerToken: 8}
	// gpt-oss-20b: biases on attention and experts, router biases and
	// sinks in ExtraParams (24 × (32 + 64)).
	gptOss20B = Architecture{Family: FamilyDecoder, Layers: 24, Hidden: 2880, Heads: 64, KVHeads: 8, HeadDim: 64,
		FFN: 2880, GatedMLP: true, LinearBias: true, Vocab: 201088, Norm: RMSNorm, Experts: 32, ExpertsPerToken: 4,
		ExtraParams: 2304}
	// Gemma 3 4B: four norms and q/k norms per layer, tied, SigLIP tower.
	gemma3_4B = Architecture{Family: FamilyDecoder, Layers: 34, Hidden: 2560, Heads: 8, KVHeads: 4, HeadDim: 256,
		FFN: 10240, GatedMLP: true, Vocab: 262208, Tied: true, Norm: RMSNorm, NormsPerLayer: 4, QKNorm: true,
		VisionParams: 419816304}
)

func TestParamCountNewShapes(t *testing.T) {
	tests := []struct {
		name          string
		a             Architecture
		total, active float64
	}{
		{"deepseek-v3: MLA, 3 dense layers, 256 routed + 1 shared", deepseekV3, 671026404352, 37552282624},
		{"llama-4-maverick: interleaved MoE, shared expert, vision tower resident not active", llama4Maverick,
			401583781376, 17184691200},
		{"qwen3-30b-a3b: KerasHub qwen3_moe_30b_a3b_en", qwen3MoE, 30532122624, 3353032704},
		{"gpt-oss-20b: KerasHub gpt_oss_20b_en", gptOss20B, 20914757184, 4187440704},
		{"gemma-3-4b: KerasHub medgemma_4b; active without the vision tower", gemma3_4B, 4300079472, 3880263168},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.a.Validate(); err != nil {
				t.Fatal(err)
			}
			if got := tt.a.ParamCount(); got != tt.total {
				t.Errorf("ParamCount() = %.0f, want %.0f (diff %+.0f)", got, tt.total, got-tt.total)
			}
			if got := tt.a.ActiveParams(); got != tt.active {
				t.Errorf("ActiveParams() = %.0f, want %.0f (diff %+.0f)", got, tt.active, got-tt.active)
			}
			// The blocks' mean times the layers is their total, dense layers or not.
			if got, want := float64(tt.a.Layers)*tt.a.layerParams(tt.a.experts()), tt.a.blocksParams(tt.a.experts()); got != want {
				t.Errorf("Layers × layerParams = %.0f, blocks %.0f", got, want)
			}
		})
	}
}

// TestLargestLayer: FSDP and ZeRO-3 gather a whole MoE block, not the
// mean of MoE and dense blocks.
func TestLargestLayer(t *testing.T) {
	// Maverick MoE layer: attention 5120·(5120 + 2·1024) + 5120·5120 =
	// 62,914,560, 2 norms 10,240, 129 experts × 3 × 5120 × 8192 =
	// 16,231,956,480, router 5120 × 128 = 655,360.
	if got, want := llama4Maverick.largestLayerParams(), 62914560+10240+16231956480+655360.0; got != want {
		t.Errorf("largestLayerParams() = %.0f, want %.0f", got, want)
	}
	if got, want := llama4Maverick.blockParams(), llama4Maverick.largestLayerParams(); got != want {
		t.Errorf("blockParams() = %.0f, want the largest layer %.0f", got, want)
	}
	if got, want := mixtral.largestLayerParams(), mixtral.layerParams(mixtral.experts()); got != want {
		t.Errorf("mixtral: largestLayerParams() = %.0f, want layerParams %.0f", got, want)
	}
}

// TestLinearParamsMLA: the quantizable linears of DeepSeek-V3 are the
// attention projections and every MLP, without norms, routers or
// embeddings.
func TestLinearParamsMLA(t *testing.T) {
	attn := 48758784 + 20905984 + 117440512.0
	mlp := 3.0*18432*7168*3 + 58*257*3*7168*2048.0
	if got, want := deepseekV3.LinearParams(), 61*attn+mlp; got != want {
		t.Errorf("LinearParams() = %.0f, want %.0f", got, want)
	}
}

func TestValidateNewShapes(t *testing.T) {
	base := Architecture{Family: FamilyDecoder, Layers: 4, Hidden: 64, Heads: 4, FFN: 128, Vocab: 100}
	tests := []struct {
		name string
		edit func(a *Architecture)
	}{
		{"shared experts on a dense model", func(a *Architecture) { a.SharedExperts = 1 }},
		{"dense layers on a dense model", func(a *Architecture) { a.DenseLayers = 1 }},
		{"more dense layers than layers", func(a *Architecture) { a.Experts, a.ExpertsPerToken, a.DenseLayers = 4, 2, 5 }},
		{"rope head dim without latent attention", func(a *Architecture) { a.RopeHeadDim = 8 }},
		{"latent attention without head_dim", func(a *Architecture) { a.KVLoRARank = 16 }},
		{"rotary part as large as the head", func(a *Architecture) { a.KVLoRARank, a.HeadDim, a.RopeHeadDim = 16, 16, 16 }},
		{"negative vision params", func(a *Architecture) { a.VisionParams = -1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := base
			tt.edit(&a)
			if err := a.Validate(); !errors.Is(err, ErrInvalidArchitecture) {
				t.Errorf("Validate() = %v, want ErrInvalidArchitecture", err)
			}
		})
	}
	if err := base.Validate(); err != nil {
		t.Errorf("base: %v", err)
	}
}
