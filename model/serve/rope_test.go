package serve_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// qwen3_8B is Qwen3 8B as the catalog holds it: config.json's 40960
// positions and rope_theta 1000000, the model card's native 32768.
var qwen3_8B = model.Architecture{Key: "qwen3-8b", Name: "Qwen3 8B", Family: model.FamilyDecoder, ModelType: "qwen3",
	Layers: 36, Hidden: 4096, Heads: 32, KVHeads: 8, HeadDim: 128, FFN: 12288, GatedMLP: true, Vocab: 151936,
	Norm: model.RMSNorm, MaxPositions: 40960, RopeTheta: 1e6, RopeOriginal: 32768}

// TestParseRopeScaling: --rope-scaling and [serve] rope_scaling read
// TYPE:FACTOR[:ORIGINAL] or none, refusing with what is valid.
func TestParseRopeScaling(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want serve.RopeScaling
		err  string
	}{
		{"yarn:4", serve.RopeScaling{Type: "yarn", Factor: 4}, ""},
		{"YaRN:2.5", serve.RopeScaling{Type: "yarn", Factor: 2.5}, ""},
		{"yarn:4:32768", serve.RopeScaling{Type: "yarn", Factor: 4, Original: 32768}, ""},
		{"yarn:4:32K", serve.RopeScaling{Type: "yarn", Factor: 4, Original: 32768}, ""},
		{"yarn:4:32k", serve.RopeScaling{Type: "yarn", Factor: 4, Original: 32000}, ""},
		{"none", serve.RopeScaling{}, ""},
		{"", serve.RopeScaling{}, ""},
		{"yarm:4", serve.RopeScaling{}, `rope scaling type "yarm": did you mean "yarn"? want yarn`},
		{"linear:2", serve.RopeScaling{}, `rope scaling type "linear": want yarn`},
		{"yarn", serve.RopeScaling{}, `rope scaling "yarn": want TYPE:FACTOR or TYPE:FACTOR:ORIGINAL, such as yarn:4 or yarn:4:32768, or none`},
		{"yarn:1", serve.RopeScaling{}, `rope scaling factor "1": want a number above 1 and at most 64, such as 4 (yarn:4)`},
		{"yarn:NaN", serve.RopeScaling{}, `rope scaling factor "NaN": want a number above 1`},
		{"yarn:65", serve.RopeScaling{}, `rope scaling factor "65": want a number above 1 and at most 64`},
		{"yarn:4:0", serve.RopeScaling{}, `rope scaling original positions "0": want a whole number of tokens from 1 to 16777216`},
		{"yarn:64:16777216", serve.RopeScaling{}, `rope scaling "yarn:64:16777216": 16777216 × 64 positions is above 16777216`},
		{"yarn:4:1:2", serve.RopeScaling{}, `want TYPE:FACTOR or TYPE:FACTOR:ORIGINAL`},
	} {
		got, err := serve.ParseRopeScaling(tt.in)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParseRopeScaling(%q) error %v, want %q", tt.in, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("ParseRopeScaling(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
	if s := (serve.RopeScaling{Type: "yarn", Factor: 2.5, Original: 32768}).String(); s != "yarn:2.5:32768" {
		t.Errorf("String() = %q, want yarn:2.5:32768", s)
	}
}

// TestRopeScalingPositions: the positions vLLM derives with the YaRN
// scaling asked, original_max_position_embeddings × factor
// (vllm/config/model.py _get_and_verify_max_len), the original the
// model card's (Qwen3: 32768) unless given.
func TestRopeScalingPositions(t *testing.T) {
	noCard := qwen3_8B
	noCard.RopeOriginal = 0
	for _, tt := range []struct {
		name string
		a    model.Architecture
		r    serve.RopeScaling
		want int
	}{
		{"none: config.json's 40960", qwen3_8B, serve.RopeScaling{}, 40960},
		{"yarn:4 from the card's 32768: 131072", qwen3_8B, serve.RopeScaling{Type: "yarn", Factor: 4}, 131072},
		{"yarn:2: 65536", qwen3_8B, serve.RopeScaling{Type: "yarn", Factor: 2}, 65536},
		{"yarn:4:40960 given: 163840", qwen3_8B, serve.RopeScaling{Type: "yarn", Factor: 4, Original: 40960}, 163840},
		{"yarn:1.5 without a card: ⌊40960 × 1.5⌋ = 61440", noCard, serve.RopeScaling{Type: "yarn", Factor: 1.5}, 61440},
	} {
		if got := tt.r.Positions(&tt.a); got != tt.want {
			t.Errorf("%s: Positions() = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestValidatePositionsSaysHowFurther: a new user's walk, Qwen3 8B at
// --max-model-len 64K, was refused "above the model's 40960 positions"
// with no way on. The refusal now names the smallest whole YaRN factor
// over the model card's 32768 that holds the request (⌈65536 ÷ 32768⌉ =
// 2; 128K: 4), and --rope-scaling yarn:N plans it. A model vLLM scales no
// further keeps the plain refusal. Failing before: 64K refused without the
// flag, and none to give.
func TestValidatePositionsSaysHowFurther(t *testing.T) {
	gemma3 := model.Architecture{Name: "Gemma 3 12B", Family: model.FamilyDecoder, ModelType: "gemma3_text", VisionParams: 1,
		Layers: 48, Hidden: 3840, Heads: 16, KVHeads: 8, HeadDim: 256, FFN: 15360, GatedMLP: true, Vocab: 262208,
		Norm: model.RMSNorm, MaxPositions: 131072, RopeTheta: 1e6}
	gpt2 := model.Architecture{Name: "GPT-2", Family: model.FamilyDecoder, ModelType: "gpt2", Layers: 12, Hidden: 768, Heads: 12,
		FFN: 3072, Vocab: 50257, LearnedPositions: 1024, MaxPositions: 1024}
	noTheta := qwen3_8B
	noTheta.RopeTheta = 0
	yarn := func(f float64) serve.RopeScaling { return serve.RopeScaling{Type: "yarn", Factor: f} }
	for _, tt := range []struct {
		name string
		a    model.Architecture
		len  int
		r    serve.RopeScaling
		err  string // "" valid
	}{
		{"40960 fits Qwen3's positions as they are", qwen3_8B, 40960, serve.RopeScaling{}, ""},
		{"65536 > 40960: give yarn:2 (32768 × 2)", qwen3_8B, 65536, serve.RopeScaling{},
			"max_model_len 65536 is above the model's 40960 positions; vLLM serves a RoPE model past them with YaRN: give --rope-scaling yarn:2 (32768 × 2 = 65536 positions), which the launch files pass as --hf-overrides"},
		{"131072 > 40960: yarn:4 (32768 × 4)", qwen3_8B, 131072, serve.RopeScaling{}, "give --rope-scaling yarn:4 (32768 × 4 = 131072 positions)"},
		{"65536 with yarn:2: 65536 positions, valid", qwen3_8B, 65536, yarn(2), ""},
		{"131072 with yarn:4: valid", qwen3_8B, 131072, yarn(4), ""},
		{"131073 with yarn:4: ⌈131073 ÷ 32768⌉ = 5", qwen3_8B, 131073, yarn(4),
			"max_model_len 131073 is above the 131072 positions of rope_scaling yarn:4 (32768 × 4); give --rope-scaling yarn:5 (32768 × 5 = 163840 positions)"},
		{"past 64 × 32768 no factor reaches", qwen3_8B, 64*32768 + 1, yarn(4), "and no YaRN factor up to 64 reaches it"},
		{"Gemma 3: vLLM applies no factor", gemma3, 4096, yarn(2), "rope_scaling yarn:2: vLLM applies no RoPE factor to Gemma 3 (model type gemma3): its 131072 positions already count its scaling"},
		{"Gemma 3 past its positions: the plain refusal", gemma3, 262144, serve.RopeScaling{}, "max_model_len 262144 is above the model's 131072 positions"},
		{"GPT-2, learned positions: none to scale", gpt2, 512, yarn(2), "rope_scaling yarn:2: GPT-2 has no rotary positions to scale"},
		{"no rope_theta: the override cannot be written", noTheta, 4096, yarn(2), "gpuplan does not know Qwen3 8B's rope_theta"},
		{"no rope_theta past the positions: the plain refusal", noTheta, 65536, serve.RopeScaling{}, "max_model_len 65536 is above the model's 40960 positions"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := serve.Serving{MaxModelLen: tt.len, PromptTokens: 1, OutputTokens: 1, RopeScaling: tt.r}
			err := s.Validate(&tt.a)
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || !errors.Is(err, serve.ErrInvalid)):
				t.Errorf("Validate() = %v, want ErrInvalid with %q", err, tt.err)
			case strings.HasSuffix(tt.err, "positions") && err != nil && strings.Contains(err.Error(), "rope-scaling"):
				t.Errorf("Validate() = %v, want no --rope-scaling for a model vLLM scales no further", err)
			}
		})
	}
}

// TestPositionsErrorFigures: the refusal above the positions carries its
// figures (serve.PositionsError), so the configurator can name its own
// field instead of --rope-scaling; its text stays the command line's and
// errors.As still finds the *model.KindError of ErrInvalid.
func TestPositionsErrorFigures(t *testing.T) {
	yarn4 := serve.RopeScaling{Type: "yarn", Factor: 4}
	for _, tt := range []struct {
		name string
		len  int
		r    serve.RopeScaling
		want serve.PositionsError // Err left out
	}{
		{"65536 > 40960: yarn:2 over 32768", 65536, serve.RopeScaling{}, serve.PositionsError{MaxModelLen: 65536, Positions: 40960, Factor: 2, Original: 32768}},
		{"131073 > yarn:4's 131072: yarn:5", 131073, yarn4, serve.PositionsError{MaxModelLen: 131073, Positions: 131072, Rope: yarn4, RopeOriginal: 32768, Factor: 5, Original: 32768}},
		{"past 64 × 32768: no factor", 64*32768 + 1, yarn4, serve.PositionsError{MaxModelLen: 64*32768 + 1, Positions: 131072, Rope: yarn4}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := serve.Serving{MaxModelLen: tt.len, PromptTokens: 1, OutputTokens: 1, RopeScaling: tt.r}
			err := s.Validate(&qwen3_8B)
			var pe *serve.PositionsError
			var ke *model.KindError
			if !errors.As(err, &pe) || !errors.As(err, &ke) || ke.Kind != serve.ErrInvalid || pe.Error() != ke.Error() {
				t.Fatalf("Validate() = %#v, want a *serve.PositionsError around a *model.KindError of ErrInvalid", err)
			}
			got := *pe
			got.Err = nil
			if got != tt.want {
				t.Errorf("PositionsError = %+v, want %+v", got, tt.want)
			}
		})
	}
}
