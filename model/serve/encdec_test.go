package serve_test

import (
	"errors"
	"testing"

	"github.com/gpuplan/gpuplan/model/serve"
)

// TestEncoderDecoderKVCache: an encoder-decoder's KV cache holds its
// decoder's layers (vLLM gives the encoder none), and every request holds
// the cross-attention keys and values of the encoder's 1500 positions in
// ⌈1500 ÷ 16⌉ = 94 blocks, 1504 tokens (vllm/v1/kv_cache_interface.py
// CrossAttentionSpec). A new user's walk: whisper-large-v3-turbo on an L4
// was "160 KiB per token per GPU: 265.2 concurrent 448-token sequences",
// its 32 encoder layers counted and no cross-attention.
func TestEncoderDecoderKVCache(t *testing.T) {
	for _, tt := range []struct {
		name, key string
		tp        int
		perToken  float64
		cross     int
	}{
		{"turbo: 2 × 4 decoder layers × 20 heads × 64 × 2 B", "whisper-large-v3-turbo", 1, 2 * 4 * 20 * 64 * 2, 1504},
		{"large-v3: 2 × 32 decoder layers × 1280 × 2 B", "whisper-large-v3", 1, 2 * 32 * 1280 * 2, 1504},
		{"large-v3 at TP 2: 10 heads a GPU", "whisper-large-v3", 2, 2 * 32 * 10 * 64 * 2, 1504},
		{"tiny: 2 × 4 × 384 × 2 B", "whisper-tiny", 1, 2 * 4 * 384 * 2, 1504},
		{"a decoder holds no cross-attention", "llama-3.1-8b", 1, 2 * 32 * 8 * 128 * 2, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, g := modelGPU(t, tt.key, "l4")
			if got := serve.KVBytesPerToken(a, serve.KVAuto, tt.tp, 1); got != tt.perToken {
				t.Errorf("KVBytesPerToken = %.0f, want %.0f", got, tt.perToken)
			}
			if got := serve.CrossAttentionTokens(a); got != tt.cross {
				t.Errorf("CrossAttentionTokens = %d, want %d", got, tt.cross)
			}
			s := serve.Serving{MaxModelLen: 448, PromptTokens: 4, OutputTokens: 444}.Defaults(g)
			m := serve.MemoryOn(a, &s, g, tt.tp, 1)
			if m.CrossTokens != tt.cross {
				t.Errorf("Memory.CrossTokens = %d, want %d", m.CrossTokens, tt.cross)
			}
			// A request holds 448 decoder tokens and its cross-attention.
			if want := float64(m.KVTokens) / float64(448+tt.cross); m.MaxConcurrency != want {
				t.Errorf("MaxConcurrency = %.4g, want KV tokens %d ÷ %d = %.4g", m.MaxConcurrency, m.KVTokens, 448+tt.cross, want)
			}
		})
	}
}

// TestEncoderDecoderFLOPs: a decoder token of whisper-tiny (h 384, ffn
// 1536, 4 decoder layers, vocab 51865, tied) multiplies its decoder
// layers' weights but not the cross-attention's key and value projections
// of the encoder's output, which run once per request: per decoder layer
// self-attention 4·384² + 4·384 (biases as the shape formula counts them;
// the missing k_proj biases are in ExtraParams, on the encoder side) =
// 591,360, MLP 2·384·1536 + 1536 + 384 = 1,181,568, two LayerNorms 1,536,
// cross-attention 591,360 + its LayerNorm 768: 2,366,592; × 4 = 9,466,368,
// plus the tied head 51865·384 = 19,916,160, less the cross K and V 4 ×
// 2 × 384² = 1,179,648: 28,202,880 weights per token. A token at context
// 100 attends to 100 cached tokens and the 1500 encoder positions in each
// of 4 layers: DecodeFLOPs = 2 × 28,202,880 + 4 × 4 × 1600 × 384 =
// 66,236,160. The encoder side is the rest of the 37,588,608 matmul
// weights (37,760,640 less the 448 × 384 position table): 9,385,728 (the
// decoder's final LayerNorm, 768, falls on it), run over 1500 positions
// with bidirectional attention: EncoderFLOPs = 2 × 9,385,728 × 1500 + 4 ×
// 4 × 1500² × 384 = 41,981,184,000, once per request.
func TestEncoderDecoderFLOPs(t *testing.T) {
	a, _ := modelGPU(t, "whisper-tiny", "l4")
	for _, tt := range []struct {
		name      string
		got, want float64
	}{
		{"DecodeFLOPs at context 100", serve.DecodeFLOPs(a, 100), 2*28_202_880 + 4*4*1600*384},
		{"EncoderFLOPs", serve.EncoderFLOPs(a), 2*9_385_728*1500 + 4*4*1500*1500*384},
		{"PrefillFLOPs of the 4 task tokens: theirs, causal, and the encoder's", serve.PrefillFLOPs(a, 4),
			2*28_202_880*4 + 2*4*4*4*384 + 2*9_385_728*1500 + 4*4*1500*1500*384},
		{"PrefillFLOPs of no token", serve.PrefillFLOPs(a, 0), 0},
	} {
		if tt.got != tt.want {
			t.Errorf("%s = %.0f, want %.0f", tt.name, tt.got, tt.want)
		}
	}
	llama, _ := modelGPU(t, "llama-3.1-8b", "l4")
	if got := serve.EncoderFLOPs(llama); got != 0 {
		t.Errorf("EncoderFLOPs(decoder-only) = %g, want 0", got)
	}
}

// TestUnservedEncoderDecoders: vLLM serves Whisper among encoder-decoders
// and no T5 (its supported models list; BART only through a plugin), so a
// T5 serving plan or a vllm serve file for it would not start.
func TestUnservedEncoderDecoders(t *testing.T) {
	for _, tt := range []struct {
		key    string
		serves bool
	}{
		{"whisper-large-v3", true}, {"whisper-large-v3-turbo", true}, {"llama-3.1-8b", true},
		{"t5-large", false}, {"t5-base", false},
	} {
		a, _ := modelGPU(t, tt.key, "l4")
		if got := serve.ServesModel(a); got != tt.serves {
			t.Errorf("ServesModel(%s) = %v, want %v (%v)", tt.key, got, tt.serves, serve.Unserved(a))
		}
		s := serve.Serving{MaxModelLen: 448, PromptTokens: 4, OutputTokens: 444}
		if err := s.Validate(a); (err == nil) != tt.serves {
			t.Errorf("Validate(%s) = %v, want an error: %v", tt.key, err, !tt.serves)
		}
	}
	// vLLM's Whisper has no pipeline parallelism, nor prefix caching.
	a, _ := modelGPU(t, "whisper-large-v3", "l4")
	for _, s := range []serve.Serving{
		{MaxModelLen: 448, PromptTokens: 4, OutputTokens: 444, PP: 2},
		{MaxModelLen: 448, PromptTokens: 4, OutputTokens: 444, SharedPrefixTokens: 4},
	} {
		if err := s.Validate(a); !errors.Is(err, serve.ErrInvalid) {
			t.Errorf("Validate(pp %d, shared prefix %d) = %v, want ErrInvalid", s.PP, s.SharedPrefixTokens, err)
		}
	}
}

// TestWhisperServingPlan: whisper-large-v3 on one L4 at 8 concurrent
// transcriptions is planned at PP 1 and its concurrency counts the cross
// attention: 4.36 times fewer requests than its decoder cache alone holds
// (448 + 1504 tokens a request, not 448).
func TestWhisperServingPlan(t *testing.T) {
	a, g := modelGPU(t, "whisper-large-v3", "l4")
	s := serve.Serving{MaxModelLen: 448, PromptTokens: 4, OutputTokens: 444, Concurrency: 8}
	p, err := serve.PlanOnGPU(a, s, g)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Fits || p.PP != 1 {
		t.Fatalf("plan: fits %v, PP %d, reasons %v; want a fit at PP 1", p.Fits, p.PP, p.Reasons)
	}
	if want := float64(p.Memory.KVTokens) / 1952; p.Memory.MaxConcurrency != want {
		t.Errorf("MaxConcurrency = %.4g, want %d ÷ 1952 = %.4g", p.Memory.MaxConcurrency, p.Memory.KVTokens, want)
	}
	if p.Perf.TTFTSec <= 0 || p.Perf.TPOTSec <= 0 {
		t.Errorf("TTFT %g s, TPOT %g s: want both timed", p.Perf.TTFTSec, p.Perf.TPOTSec)
	}
}
