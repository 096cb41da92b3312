package hf

import (
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// catalogKeys maps each config.json in testdata/config to the embedded
// catalog entry of the same model; configs of models the catalog does not
// carry (falcon, opt, bloom, ...) are absent.
var catalogKeys = map[string]string{
	"llama-2-7b": "llama-2-7b", "llama-3.1-8b": "llama-3.1-8b", "llama-3-8b": "llama-3-8b", "llama-3-70b": "llama-3-70b", "mistral-7b": "mistral-7b",
	"mixtral-8x7b": "mixtral-8x7b", "qwen2.5-7b": "qwen2.5-7b", "gemma-2-9b": "gemma-2-9b",
	"phi-3-mini-4k": "phi-3-mini", "gpt2": "gpt2", "gpt2-xl": "gpt2-xl", "bert-base-uncased": "bert-base",
	"t5-base": "t5-base", "whisper-large-v3": "whisper-large-v3",
	"qwen3-0.6b": "qwen3-0.6b", "qwen3-1.7b": "qwen3-1.7b", "qwen3-4b": "qwen3-4b", "qwen3-8b": "qwen3-8b",
	"qwen3-14b": "qwen3-14b", "qwen3-32b": "qwen3-32b", "qwen3-30b-a3b": "qwen3-30b-a3b",
	"qwen3-235b-a22b": "qwen3-235b-a22b", "qwen3-coder-480b-a35b": "qwen3-coder-480b-a35b",
	"qwen3-4b-2507": "qwen3-4b-2507", "qwen3-30b-a3b-2507": "qwen3-30b-a3b-2507", "qwen3-coder-30b-a3b": "qwen3-30b-a3b-2507",
	"qwen3-235b-a22b-2507": "qwen3-235b-a22b-2507", "qwq-32b": "qwen2.5-32b",
	"qwen2.5-0.5b": "qwen2.5-0.5b", "qwen2.5-1.5b": "qwen2.5-1.5b", "qwen2.5-3b": "qwen2.5-3b",
	"qwen2.5-14b": "qwen2.5-14b", "qwen2.5-32b": "qwen2.5-32b",
	"deepseek-r1-distill-qwen-1.5b": "r1-distill-qwen-1.5b",
	"llama-3.2-1b":                  "llama-3.2-1b", "llama-3.2-3b": "llama-3.2-3b", "llama-3.3-70b": "llama-3.3-70b",
	"llama-3.1-405b": "llama-3.1-405b", "llama-4-scout": "llama-4-scout", "llama-4-maverick": "llama-4-maverick",
	"gemma-2-2b": "gemma-2-2b", "gemma-2-27b": "gemma-2-27b", "gemma-3-1b": "gemma-3-1b", "gemma-3-4b": "gemma-3-4b",
	"gemma-3-12b": "gemma-3-12b", "gemma-3-27b": "gemma-3-27b", "gpt-oss-20b": "gpt-oss-20b",
	"gpt-oss-120b": "gpt-oss-120b", "deepseek-v3": "deepseek-v3", "mistral-small-24b": "mistral-small-24b",
	"mistral-nemo": "mistral-nemo-12b", "mixtral-8x22b": "mixtral-8x22b", "phi-4": "phi-4", "phi-4-mini": "phi-4-mini",
	"smollm2-135m": "smollm2-135m", "smollm2-360m": "smollm2-360m", "smollm2-1.7b": "smollm2-1.7b",
	"smollm3-3b": "smollm3-3b", "modernbert-base": "modernbert-base", "modernbert-large": "modernbert-large",
	"whisper-tiny": "whisper-tiny", "whisper-small": "whisper-small", "whisper-medium": "whisper-medium", "whisper-large-v3-turbo": "whisper-large-v3-turbo",
}

// TestCatalogMatchesImporter: for every model whose config.json is in
// testdata, the importer and the catalog entry agree to the unit on the
// total and per-token parameter counts, on the shape the estimator reads
// and on the positions (max_position_embeddings), which bound serving and
// size the KV cache, so `--model KEY` and `--hf-config config.json`
// estimate the same model. A fixture mapped to another model's entry is an
// alias that must hold all of it: Qwen3-Coder-30B-A3B-Instruct, aliased to
// qwen3-30b-a3b, had its layers but 262144 positions, not 40960.
func TestCatalogMatchesImporter(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	for file, key := range catalogKeys {
		t.Run(file, func(t *testing.T) {
			got := mustRead(t, file).Arch
			want, err := cat.Model(key)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := got.ParamCount(), want.ParamCount(); g != w {
				t.Errorf("ParamCount: importer %.0f, catalog %s %.0f (diff %+.0f)", g, key, w, g-w)
			}
			if g, w := got.ActiveParams(), want.ActiveParams(); g != w {
				t.Errorf("ActiveParams: importer %.0f, catalog %s %.0f (diff %+.0f)", g, key, w, g-w)
			}
			if g, w := got.LinearParams(), want.LinearParams(); g != w {
				t.Errorf("LinearParams: importer %.0f, catalog %s %.0f", g, key, w)
			}
			norm := func(a *model.Architecture) (headDim, kvHeads int) {
				headDim, kvHeads = a.HeadDim, a.KVHeads
				if headDim == 0 {
					headDim = a.Hidden / a.Heads
				}
				if kvHeads == 0 {
					kvHeads = a.Heads
				}
				return headDim, kvHeads
			}
			type shape struct {
				Family                                           string
				Layers, DecoderLayers, Hidden, Heads, FFN, Vocab int
				HeadDim, KVHeads, Experts, PerToken, Shared      int
				Dense, DenseFFN, KVLoRA                          int
				Gated, Tied, QKNorm, FusedQKV, FusedGateUp       bool
				SlidingWindow, SlidingLayers                     int
				MaxPositions                                     int // bounds --max-model-len and the KV cache
			}
			ghd, gkv := norm(&got)
			whd, wkv := norm(want)
			g := shape{string(got.Family), got.Layers, got.DecoderLayers, got.Hidden, got.Heads, got.FFN, got.Vocab,
				ghd, gkv, got.Experts, got.ExpertsPerToken, got.SharedExperts, got.DenseLayers, got.DenseFFN,
				got.KVLoRARank, got.GatedMLP, got.Tied, got.QKNorm, got.FusedQKV, got.FusedGateUp, got.SlidingWindow, got.SlidingLayers,
				got.MaxPositions}
			w := shape{string(want.Family), want.Layers, want.DecoderLayers, want.Hidden, want.Heads, want.FFN, want.Vocab,
				whd, wkv, want.Experts, want.ExpertsPerToken, want.SharedExperts, want.DenseLayers, want.DenseFFN,
				want.KVLoRARank, want.GatedMLP, want.Tied, want.QKNorm, want.FusedQKV, want.FusedGateUp, want.SlidingWindow, want.SlidingLayers,
				want.MaxPositions}
			if g != w {
				t.Errorf("shape:\nimporter %+v\ncatalog  %+v", g, w)
			}
		})
	}
}
