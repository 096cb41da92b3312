package serve_test

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// The shapes KVBytesPerToken reads, from the models' config.json:
// DeepSeek-V3 (61 layers, kv_lora_rank 512, qk_rope_head_dim 64) and
// Llama 3.1 8B (32 layers, 8 KV heads of 128).
var (
	deepseekV3 = model.Architecture{Family: model.FamilyDecoder, Layers: 61, Hidden: 7168, Heads: 128, KVHeads: 128, FFN: 18432, Vocab: 129280,
		KVLoRARank: 512, QLoRARank: 1536, RopeHeadDim: 64, HeadDim: 192, VHeadDim: 128}
	llama31_8B = model.Architecture{Family: model.FamilyDecoder, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, Vocab: 128256}
)

// TestKVBytesPerTokenMLA: vLLM caches kv_lora_rank + qk_rope_head_dim
// values per token and layer, the same on every tensor-parallel rank.
func TestKVBytesPerTokenMLA(t *testing.T) {
	for _, tt := range []struct {
		kv     serve.KVCacheDType
		tp, pp int
		want   float64
	}{
		{serve.KVAuto, 1, 1, 61 * 576 * 2},
		{serve.KVAuto, 8, 1, 61 * 576 * 2},
		{serve.KVFP8, 8, 1, 61 * 576},
		{serve.KVAuto, 8, 2, 31 * 576 * 2},
	} {
		if got := serve.KVBytesPerToken(&deepseekV3, tt.kv, tt.tp, tt.pp); got != tt.want {
			t.Errorf("KVBytesPerToken(%s, tp %d, pp %d) = %v, want %v", tt.kv, tt.tp, tt.pp, got, tt.want)
		}
	}
	// Grouped-query attention is unchanged: 2 × 32 layers × 8 heads × 128 × 2 bytes.
	if got := serve.KVBytesPerToken(&llama31_8B, serve.KVAuto, 1, 1); got != 131072 {
		t.Errorf("llama-3.1-8b: KVBytesPerToken = %v, want 131072", got)
	}
}
