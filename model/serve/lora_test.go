package serve_test

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model/serve"
)

func TestMaxLoRARank(t *testing.T) {
	for _, tt := range []struct {
		name string
		r    int
		want int
		ok   bool
	}{
		{"rank 1 is a value of its own", 1, 1, true},
		{"rank 2 takes 8", 2, 8, true},
		{"rank 16, vLLM's default", 16, 16, true},
		{"rank 24 takes 32", 24, 32, true},
		{"rank 300 takes 320", 300, 320, true},
		{"rank 512 is the largest", 512, 512, true},
		{"rank 513 is past what vLLM serves", 513, 0, false},
	} {
		got, ok := serve.MaxLoRARank(tt.r)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: MaxLoRARank(%d) = %d, %v, want %d, %v", tt.name, tt.r, got, ok, tt.want, tt.ok)
		}
	}
}

// TestLoRABytes: Qwen3 8B (36 layers, hidden 4096, 32 heads and 8 KV heads
// of 128, a gated MLP of 12288), one slot at rank 16 in bf16. Per layer,
// elements: qkv_proj 3 × 16 × 4096 of A + 16 × (4096 + 2 × 1024) of B =
// 294,912; o_proj 16 × 4096 + 4096 × 16 = 131,072; gate_up_proj 2 × 16 ×
// 4096 + 16 × 2 × 12288 = 524,288; down_proj 16 × 12288 + 4096 × 16 =
// 262,144; 1,212,416 in all, × 36 layers × 2 bytes = 87,293,952 bytes.
// Under TP 2 the column layers' B and the row layers' A halve: qkv
// 196,608 + 16 × (2048 + 2 × 512), o 16 × 2048 + 65,536, gate_up 131,072
// + 16 × 2 × 6144, down 16 × 6144 + 65,536: 835,584 × 36 × 2. Two slots
// double it; PP 2 halves it.
func TestLoRABytes(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	a, err := cat.Model("qwen3-8b")
	if err != nil {
		t.Fatal(err)
	}
	r16 := &serve.LoRA{Name: "ft", Rank: 16, MaxRank: 16, MaxLoRAs: 1}
	two := &serve.LoRA{Name: "ft", Rank: 16, MaxRank: 16, MaxLoRAs: 2}
	for _, tt := range []struct {
		name   string
		l      *serve.LoRA
		tp, pp int
		want   float64
	}{
		{"no adapter: none", nil, 1, 1, 0},
		{"rank 16, TP 1: 1,212,416 × 36 × 2 B", r16, 1, 1, 1212416 * 36 * 2},
		{"rank 16, TP 2: 835,584 × 36 × 2 B", r16, 2, 1, 835584 * 36 * 2},
		{"two slots double it", two, 1, 1, 2 * 1212416 * 36 * 2},
		{"PP 2 holds half the layers", r16, 1, 2, 1212416 * 18 * 2},
	} {
		if got := serve.LoRABytes(a, tt.l, tt.tp, tt.pp, 2); math.Abs(got-tt.want) > 0.5 {
			t.Errorf("%s: LoRABytes = %.0f B, want %.0f B", tt.name, got, tt.want)
		}
	}
	// The slots come out of the KV cache: vLLM counts them in the
	// model's load (Memory.Weights), and the KV cache is what is left.
	g, err := cat.GPU("l40s")
	if err != nil {
		t.Fatal(err)
	}
	s := serve.Serving{WeightFormat: serve.WeightBF16, KVCacheDType: serve.KVAuto, MaxModelLen: 4096, GPUMemoryUtilization: 0.9, MaxNumSeqs: 256, MaxNumBatchedTokens: 2048}
	base := serve.MemoryOn(a, &s, g, 1, 1)
	s.LoRA = r16
	with := serve.MemoryOn(a, &s, g, 1, 1)
	want := 1212416.0 * 36 * 2
	if math.Abs(with.LoRA-want) > 0.5 || math.Abs(with.Weights-base.Weights-want) > 0.5 || math.Abs(base.KVCache-with.KVCache-want) > 0.5 {
		t.Errorf("MemoryOn with the adapter: LoRA %.0f, weights +%.0f, KV cache −%.0f B, want %.0f each", with.LoRA, with.Weights-base.Weights, base.KVCache-with.KVCache, want)
	}
}
