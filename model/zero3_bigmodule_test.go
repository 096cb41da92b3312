package model

import (
	"math"
	"testing"
)

// TestZeRO3GathersABigModuleWhole: DeepSpeed ZeRO-3 all-gathers every
// parameter of the submodule it is about to run whatever
// stage3_max_live_parameters says; the limit bounds only the prefetch,
// min(max_live − available, stage3_prefetch_bucket_size)
// (partitioned_param_coordinator.py _fetch_sub_module_impl). A module
// past the limit is gathered whole, with nothing prefetched beside it.
// Before, the sum was capped at the limit: 1e9 for BLOOM-7b1's tied
// 250,880 × 4,096 embedding.
func TestZeRO3GathersABigModuleWhole(t *testing.T) {
	bloom7b1 := Architecture{Key: "bloom-7b1", Family: FamilyDecoder, Layers: 30, Hidden: 4096, Heads: 32, FFN: 16384,
		Vocab: 250880, Tied: true, LinearBias: true, MaxPositions: 2048}
	llama70 := Architecture{Key: "llama-3.1-70b", Family: FamilyDecoder, Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8,
		FFN: 28672, GatedMLP: true, Vocab: 128256, Norm: RMSNorm, MaxPositions: 131072}
	for _, tc := range []struct {
		name string
		a    Architecture
		elem float64
		want float64
	}{
		// 250,880 · 4,096 = 1,027,604,480 > 1e9: the embedding alone.
		// The turn of backward keeps less: a block's modules are 4·4096²
		// + 2·4096·16384 = 201,326,592, and only modules within half the
		// reuse distance (5e8) of the turn stay, plus the prefetch.
		{"bloom-7b1 embedding", bloom7b1, 1, 1027604480},
		// 128,256 · 8,192 = 1,050,673,152 > 1e9, untied: the embedding or
		// the head, one at a time.
		{"llama-3.1-70b head", llama70, 1, 1050673152},
		// Llama 2 7B: the embedding, 32,000 · 4,096 = 131,072,000, is
		// within the limit and gets the whole 5e7 prefetch (181,072,000);
		// where backward turns the head and the last modules within 5e8
		// of it stay: head 131,072,000, then down, up, gate (3 ·
		// 45,088,768), o, v, k, q (4 · 16,777,216) = 333,447,168, then the
		// previous block's down, up, gate (468,713,472), o (485,490,688)
		// and v (502,267,904), the last one met before twice the modules
		// after it reach 1e9; plus the 5e7 prefetch: 552,267,904. The
		// same as before: the change is only past the limit.
		{"llama-2-7b", llama2_7B, 1, 552267904},
	} {
		if got := gatheredParams(&tc.a, RecipeDeepSpeed, false, tc.elem); math.Abs(got-tc.want) > 0.5 {
			t.Errorf("%s: gathered %.0f parameters, want %.0f", tc.name, got, tc.want)
		}
	}
}
