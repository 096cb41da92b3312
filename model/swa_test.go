package model

import (
	"errors"
	"testing"
)

// TestKVCacheSlidingWindow: Hugging Face generate's cache keeps the last
// sliding_window − 1 tokens in a sliding-window layer
// (DynamicSlidingWindowLayer) and every token in the others. gpt-oss-120b
// at 4096 tokens, 2 sequences, bf16: 2 × 8 KV heads × 64 × (18 × 4096 +
// 18 × 127) tokens × 2 sequences × 2 B; at 100 tokens, inside the window,
// every layer holds all of them; a model without a window is unchanged.
func TestKVCacheSlidingWindow(t *testing.T) {
	oss := Architecture{Family: FamilyDecoder, Layers: 36, Hidden: 2880, Heads: 64, KVHeads: 8, HeadDim: 64, FFN: 2880,
		GatedMLP: true, Vocab: 201088, Norm: RMSNorm, Experts: 128, ExpertsPerToken: 4, SlidingWindow: 128, SlidingLayers: 18}
	llama := Architecture{Family: FamilyDecoder, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, GatedMLP: true, Vocab: 128256, Norm: RMSNorm}
	for _, tt := range []struct {
		name string
		a    Architecture
		ctx  int
		want float64
	}{
		{"gpt-oss-120b at 4096: 18 layers × 4096 + 18 × 127", oss, 4096, 2 * 8 * 64 * (18*4096 + 18*127) * 2 * 2},
		{"gpt-oss-120b at 100: inside the window, 36 × 100", oss, 100, 2 * 8 * 64 * 36 * 100 * 2 * 2},
		{"llama-3.1-8b at 4096: 32 × 4096", llama, 4096, 2 * 8 * 128 * 32 * 4096 * 2 * 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := Workload{Model: tt.a, Settings: Settings{Task: TaskInference, Precision: BF16, ContextLen: tt.ctx, Sequences: 2}}
			if got := kvCache(&w); got != tt.want {
				t.Errorf("kvCache() = %.0f B, want %.0f B", got, tt.want)
			}
		})
	}
}

// TestValidateSlidingWindow: a window and the layers that take it go
// together, on a decoder, within its layers, and not with multi-head
// latent attention.
func TestValidateSlidingWindow(t *testing.T) {
	base := Architecture{Family: FamilyDecoder, Layers: 4, Hidden: 64, Heads: 4, FFN: 128, Vocab: 100}
	for _, tt := range []struct {
		name            string
		window, sliding int
		mutate          func(*Architecture)
		err             error
	}{
		{"none", 0, 0, nil, nil},
		{"2 of 4 layers slide over 16 tokens", 16, 2, nil, nil},
		{"every layer", 16, 4, nil, nil},
		{"a window without layers", 16, 0, nil, ErrInvalidArchitecture},
		{"layers without a window", 0, 2, nil, ErrInvalidArchitecture},
		{"more layers than the model", 16, 5, nil, ErrInvalidArchitecture},
		{"a negative window", -1, 2, nil, ErrInvalidArchitecture},
		{"a window above 2³⁰", MaxSlidingWindow + 1, 2, nil, ErrInvalidArchitecture},
		{"an encoder", 16, 2, func(a *Architecture) { a.Family = FamilyEncoder }, ErrInvalidArchitecture},
		{"multi-head latent attention", 16, 2, func(a *Architecture) { a.KVLoRARank, a.HeadDim, a.RopeHeadDim = 8, 16, 4 }, ErrInvalidArchitecture},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := base
			a.SlidingWindow, a.SlidingLayers = tt.window, tt.sliding
			if tt.mutate != nil {
				tt.mutate(&a)
			}
			if err := a.Validate(); !errors.Is(err, tt.err) {
				t.Errorf("Validate() = %v, want %v", err, tt.err)
			}
		})
	}
}
