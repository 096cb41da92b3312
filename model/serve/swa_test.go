package serve

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// The shapes of the sliding-window models, from their config.json
// (data/catalog/models.toml has the same): gpt-oss alternates a 128-token
// window and full attention (layer_types), Gemma 3 27B slides in 52 of its
// 62 layers (sliding_window_pattern 6: L − ⌊L/6⌋) with a 1024-token
// window, Mistral 7B v0.1 in all 32 with 4096.
var (
	gptOss120B = model.Architecture{Key: "gpt-oss-120b", Family: model.FamilyDecoder, Layers: 36, Hidden: 2880, Heads: 64, KVHeads: 8,
		HeadDim: 64, FFN: 2880, GatedMLP: true, Vocab: 201088, Norm: model.RMSNorm, Experts: 128, ExpertsPerToken: 4,
		SlidingWindow: 128, SlidingLayers: 18}
	gptOss20B = model.Architecture{Key: "gpt-oss-20b", Family: model.FamilyDecoder, Layers: 24, Hidden: 2880, Heads: 64, KVHeads: 8,
		HeadDim: 64, FFN: 2880, GatedMLP: true, Vocab: 201088, Norm: model.RMSNorm, Experts: 32, ExpertsPerToken: 4,
		SlidingWindow: 128, SlidingLayers: 12}
	gemma3_27B = model.Architecture{Key: "gemma-3-27b", Family: model.FamilyDecoder, Layers: 62, Hidden: 5376, Heads: 32, KVHeads: 16,
		HeadDim: 128, FFN: 21504, GatedMLP: true, Vocab: 262208, Tied: true, Norm: model.RMSNorm, NormsPerLayer: 4, QKNorm: true,
		SlidingWindow: 1024, SlidingLayers: 52}
	mistral7B = model.Architecture{Key: "mistral-7b", Family: model.FamilyDecoder, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8,
		FFN: 14336, GatedMLP: true, Vocab: 32000, Norm: model.RMSNorm, SlidingWindow: 4096, SlidingLayers: 32}
)

// TestHybridGroups: vLLM's KV cache groups of full-attention and
// sliding-window layers (kv_cache_utils.py
// _get_kv_cache_groups_uniform_page_size): group_size the fewer layers of
// a kind, or the more when they differ by less than half.
func TestHybridGroups(t *testing.T) {
	for _, tt := range []struct {
		name                  string
		full, sliding         int
		size, fGroups, sGroup int
	}{
		{"gpt-oss-120b 18 + 18: two groups of 18", 18, 18, 18, 1, 1},
		{"gpt-oss-20b 12 + 12: two groups of 12", 12, 12, 12, 1, 1},
		{"gpt-oss-20b + eagle, vLLM's example: 13 full + 12 sw padded to two groups of 13", 13, 12, 13, 1, 1},
		{"gemma-3-27b 10 + 52: groups of 10, 52 in ⌈52/10⌉ = 6", 10, 52, 10, 1, 6},
		{"gemma-3-1b 4 + 22: groups of 4, 22 in 6", 4, 22, 4, 1, 6},
		{"gemma-3-12b 8 + 40: groups of 8, 40 in 5", 8, 40, 8, 1, 5},
		{"gemma-2-9b 21 + 21", 21, 21, 21, 1, 1},
		{"every layer slides (Mistral 7B v0.1): one group of 32", 0, 32, 32, 0, 1},
		{"no window: one group of 32", 32, 0, 32, 1, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			size, fg, sg := hybridGroups(tt.full, tt.sliding)
			if size != tt.size || fg != tt.fGroups || sg != tt.sGroup {
				t.Errorf("hybridGroups(%d, %d) = %d, %d, %d; want %d, %d, %d", tt.full, tt.sliding, size, fg, sg, tt.size, tt.fGroups, tt.sGroup)
			}
		})
	}
}

// TestKVLayoutRequestBytes: the KV cache one request of max_model_len
// holds per GPU as vLLM's hybrid manager lays it out, worked by hand from
// the configs and SlidingWindowSpec.max_memory_usage_bytes
// ((⌈min(window − 1 + max_num_batched_tokens, max_model_len) ÷ 16⌉ + 1)
// pages per sliding-window group) and FullAttentionSpec's ⌈max_model_len
// ÷ 16⌉, a page being 16 tokens × the group's layers.
func TestKVLayoutRequestBytes(t *testing.T) {
	for _, tt := range []struct {
		name            string
		a               *model.Architecture
		tp, pp          int
		maxModelLen     int
		batched         int
		layerBytes      float64 // one layer's K and V per token
		blockBytes      float64
		blocks          int
		perTokenAllFull float64 // KVBytesPerToken: every layer, every token
	}{
		{"gpt-oss-120b TP 1, 128K: 2 × 8 × 64 × 2 B = 2048 B a layer; blocks 16 × 2048 × 18; 8192 full + (⌈(127 + 8192)/16⌉ + 1 = 521) sliding",
			&gptOss120B, 1, 1, 131072, 8192, 2048, 589824, 8192 + 521, 36 * 2048},
		{"gpt-oss-120b TP 2: 4 KV heads a GPU, 1024 B a layer, the same 8713 blocks",
			&gptOss120B, 2, 1, 131072, 8192, 1024, 294912, 8713, 36 * 1024},
		{"gpt-oss-120b TP 1 × PP 2: groups of ⌈18/2⌉ = 9 layers a GPU",
			&gptOss120B, 1, 2, 131072, 8192, 2048, 16 * 2048 * 9, 8713, 18 * 2048},
		{"gpt-oss-20b on an L4 (2048 batched tokens): 8192 + ⌈(127 + 2048)/16⌉ + 1 = 8329 blocks of 16 × 2048 × 12",
			&gptOss20B, 1, 1, 131072, 2048, 2048, 393216, 8329, 24 * 2048},
		{"gemma-3-27b TP 1: 2 × 16 × 128 × 2 B = 8192 B; 8192 full + 6 groups × (⌈(1023 + 8192)/16⌉ + 1 = 577)",
			&gemma3_27B, 1, 1, 131072, 8192, 8192, 16 * 8192 * 10, 8192 + 6*577, 62 * 8192},
		{"gemma-3-27b TP 2: 4096 B a layer",
			&gemma3_27B, 2, 1, 131072, 8192, 4096, 16 * 4096 * 10, 11654, 62 * 4096},
		{"mistral-7b v0.1 at 32768: one group of 32 sliding layers, ⌈(4095 + 8192)/16⌉ + 1 = 769 blocks",
			&mistral7B, 1, 1, 32768, 8192, 4096, 16 * 4096 * 32, 769, 32 * 4096},
		{"mistral-7b v0.1 at 4096: the window holds all of it, ⌈4096/16⌉ + 1 = 257",
			&mistral7B, 1, 1, 4096, 8192, 4096, 16 * 4096 * 32, 257, 32 * 4096},
		{"llama-3.1-8b, no window: ⌈131072/16⌉ = 8192 blocks of 16 × 131072 B",
			&modeltest.Llama31_8B, 1, 1, 131072, 8192, 4096, 16 * 131072, 8192, 131072},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := kvLayout(tt.a, 2, tt.tp, tt.pp)
			if l.LayerBytesPerToken != tt.layerBytes || l.BlockBytes() != tt.blockBytes {
				t.Errorf("layer bytes %v, block bytes %v; want %v, %v", l.LayerBytesPerToken, l.BlockBytes(), tt.layerBytes, tt.blockBytes)
			}
			if got := l.RequestBlocks(tt.maxModelLen, tt.batched); got != tt.blocks {
				t.Errorf("RequestBlocks(%d, %d) = %d, want %d", tt.maxModelLen, tt.batched, got, tt.blocks)
			}
			if got := KVBytesPerToken(tt.a, KVAuto, tt.tp, tt.pp); got != tt.perTokenAllFull {
				t.Errorf("KVBytesPerToken = %v, want %v", got, tt.perTokenAllFull)
			}
		})
	}
}

// TestMemoryOnSlidingWindow: vLLM's pool of blocks and its log's figures
// for gpt-oss-120b at 131072 tokens on one H100: num_blocks =
// ⌊available ÷ (16 × 2048 × 18)⌋, "Maximum concurrency" num_blocks ÷ 8713,
// "GPU KV cache size" that × 131072; one request needs 8713 blocks,
// 5,139,136,512 B (4.79 GiB), where every layer at every token would be
// 131072 × 73728 B = 9,663,676,416 B (9 GiB). Llama 3.1 8B, without a
// window, keeps whole 16-token blocks of 131072 B a token.
func TestMemoryOnSlidingWindow(t *testing.T) {
	s := Serving{PromptTokens: 130816, OutputTokens: 256, MaxModelLen: 131072, WeightFormat: WeightMXFP4}.Defaults(&h100SXM)
	m := MemoryOn(&gptOss120B, &s, &h100SXM, 1, 1)
	blocks := int(math.Floor(m.KVCache / 589824))
	if m.KVBlocks != blocks || m.KVBlocks < 1 {
		t.Fatalf("KVBlocks = %d, want ⌊%.0f ÷ 589824⌋ = %d", m.KVBlocks, m.KVCache, blocks)
	}
	if want := float64(blocks) / 8713; m.MaxConcurrency != want {
		t.Errorf("MaxConcurrency = %v, want %d ÷ 8713 = %v", m.MaxConcurrency, blocks, want)
	}
	if want := int(float64(blocks) / 8713 * 131072); m.KVTokens != want {
		t.Errorf("KVTokens = %d, want %d", m.KVTokens, want)
	}
	if got := m.RequestKVBytes(131072, 8192); got != 8713*589824 {
		t.Errorf("RequestKVBytes = %.0f, want 8713 × 589824 = %d", got, 8713*589824)
	}
	if m.Fits() != (blocks >= 8713) {
		t.Errorf("Fits() = %v with %d blocks of the 8713 one request needs", m.Fits(), blocks)
	}

	ls := Serving{PromptTokens: 3000, OutputTokens: 1000, MaxModelLen: 8192}.Defaults(&h100SXM)
	lm := MemoryOn(&modeltest.Llama31_8B, &ls, &h100SXM, 1, 1)
	if want := int(math.Floor(lm.KVCache/(16*131072))) * 16; lm.KVTokens != want || lm.KVBytesPerToken != 131072 || lm.MaxConcurrency != float64(want)/8192 {
		t.Errorf("llama-3.1-8b: %d tokens at %v B, concurrency %v; want %d at 131072, %v", lm.KVTokens, lm.KVBytesPerToken, lm.MaxConcurrency, want, float64(want)/8192)
	}
}

// TestServeMaxBatchSlidingWindow: decoding sequences are counted in the
// pool's blocks, each holding its mean context in the full-attention
// group and the window in the sliding-window one: gpt-oss-120b at 4000 +
// 200 tokens (mean context 4100) holds 4100/16 = 256.25 full blocks and
// ⌈min(127 + 1, 4100)/16⌉ + 1 = 9 sliding blocks, so 10000 blocks hold
// ⌊10000 ÷ 265.25⌋ = 37 sequences; a 1024-token shared prefix is held once
// in the full-attention group (64 blocks), each sequence 3076/16 + 9 =
// 201.25: ⌊9936 ÷ 201.25⌋ = 49.
func TestServeMaxBatchSlidingWindow(t *testing.T) {
	l := kvLayout(&gptOss120B, 2, 1, 1)
	m := Memory{Layout: l, KVBlocks: 10000}
	s := Serving{PromptTokens: 4000, OutputTokens: 200, MaxNumSeqs: 1024}
	if got := serveMaxBatch(&s, &m); got != 37 {
		t.Errorf("serveMaxBatch = %d, want ⌊10000 ÷ 265.25⌋ = 37", got)
	}
	s.SharedPrefixTokens = 1024
	if got, want := serveMaxBatch(&s, &m), 49; got != want {
		t.Errorf("serveMaxBatch with a 1024-token prefix = %d, want %d", got, want)
	}
	lo := m.scaledKV(0.5)
	if lo.KVBlocks != 5000 {
		t.Errorf("scaledKV(0.5).KVBlocks = %d, want 5000", lo.KVBlocks)
	}
}

// TestSlidingWindowFLOPsAndRead: a sliding-window layer attends to, and a
// decode step reads, at most its window: gpt-oss-120b at 1000 tokens of
// context attends 4 × (18 × 1000 + 18 × 128) × 4096 FLOPs beside 2·N, and
// reads (18 × 1000 + 18 × 128) × 2048 B of KV cache on one GPU; a prompt
// of 1000 tokens pairs 1000²/2 in a full layer and 128²/2 + 872 × 128 in a
// sliding one.
func TestSlidingWindowFLOPsAndRead(t *testing.T) {
	const qd = 64 * 64
	n := tokenMatmulParams(&gptOss120B)
	if got, want := DecodeFLOPs(&gptOss120B, 1000), 2*n+4*(18*1000+18*128)*qd; !nearExact(got, want) {
		t.Errorf("DecodeFLOPs = %.6g, want %.6g", got, want)
	}
	if got, want := DecodeFLOPs(&gptOss120B, 100), 2*n+4*36*100*qd; !nearExact(got, want) {
		t.Errorf("DecodeFLOPs within the window = %.6g, want %.6g", got, want)
	}
	if got, want := PrefillFLOPs(&gptOss120B, 1000), 2*n*1000+2*18*1000*1000*qd+4*18*(128*128/2+872*128)*qd; !nearExact(got, want) {
		t.Errorf("PrefillFLOPs = %.6g, want %.6g", got, want)
	}
	l := kvLayout(&gptOss120B, 2, 1, 1)
	if got, want := l.KVReadBytes(1000), float64(18*1000+18*128)*2048; got != want {
		t.Errorf("KVReadBytes = %v, want %v", got, want)
	}
	ll := kvLayout(&modeltest.Llama31_8B, 2, 1, 1)
	if got := ll.KVReadBytes(1000); got != 1000*131072 {
		t.Errorf("llama-3.1-8b KVReadBytes = %v, want 1000 × 131072", got)
	}
}
