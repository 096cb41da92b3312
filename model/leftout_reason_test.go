package model_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestLeftOutReason: the names the catalog leaves out on purpose get their
// reason, whole or as a Hugging Face id, case and separators aside; a
// partial name, a catalog key of the same family and unrelated names get
// none (the configurator's search asks as each letter is typed: "flu" is
// not yet Flux).
func TestLeftOutReason(t *testing.T) {
	const (
		qwen    = "Qwen3 entries of the same size hold 40,960 positions"
		mistral = "Pixtral vision encoder"
		phi     = "the phi-4 entry holds 16,384"
		dit     = "diffusion transformers (Flux.1, SD3/SD3.5 MMDiT) are not costed"
	)
	for _, tt := range []struct {
		name, want string // want "": not left out
	}{
		{"flux", dit},
		{"FLUX.1-dev", dit},
		{"black-forest-labs/FLUX.1-schnell", dit},
		{"sd3", dit},
		{"SD3.5", dit},
		{"stable-diffusion-3.5-large", dit},
		{"stabilityai/stable-diffusion-3-medium", dit},
		{"stable diffusion 3", dit},
		{"phi-4-reasoning", phi},
		{"Phi-4-reasoning-plus", phi},
		{"microsoft/Phi-4-reasoning", phi},
		{"mistral small 3.1", mistral},
		{"Mistral-Small-3.2-24B-Instruct-2506", mistral},
		{"mistralai/Mistral-Small-3.1-24B-Base-2503", mistral},
		{"Qwen3-4B-Thinking-2507", qwen},
		{"Qwen/Qwen3-235B-A22B-Thinking-2507", qwen},

		// Partial names, catalog keys and their neighbours claim nothing.
		{"flu", ""},
		{"fl", ""},
		{"sd", ""},
		{"stable diffusion", ""},
		{"stabilityai/stable-diffusion-xl-base-1.0", ""}, // SDXL is a U-Net, in the catalog
		{"sdxl-unet", ""},
		{"phi-4", ""},
		{"phi-4-reasoni", ""},
		{"phi-4-mini", ""},
		{"mistral", ""},
		{"mistral small", ""},
		{"mistral small 3", ""},
		{"mistral-small-24b", ""},
		{"qwen3-4b", ""},
		{"qwen3-4b-thinking", ""},
		{"Qwen/Qwen3-4B-Instruct-2507", ""},
		{"llama-3.1-8b", ""},
		{"", ""},
		{"   ", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, ok := model.LeftOutReason(tt.name)
			switch {
			case tt.want == "" && ok:
				t.Fatalf("LeftOutReason(%q) = %q, want none", tt.name, m)
			case tt.want == "":
				if !m.IsZero() {
					t.Errorf("LeftOutReason(%q) = %q with ok false, want the zero Message", tt.name, m)
				}
				return
			case !ok:
				t.Fatalf("LeftOutReason(%q) = none, want a reason with %q", tt.name, tt.want)
			}
			if got := m.String(); !strings.HasPrefix(got, "model \""+tt.name+"\" is left out on purpose: ") || !strings.Contains(got, tt.want) {
				t.Errorf("LeftOutReason(%q) = %q, want it to name the model and say %q", tt.name, got, tt.want)
			}
			if !model.IsLeftOutReason(m) {
				t.Errorf("IsLeftOutReason(LeftOutReason(%q)) = false", tt.name)
			}
		})
	}
	if model.IsLeftOutReason(model.Msg("no model matches %q", "flux")) {
		t.Error("IsLeftOutReason holds for another message")
	}
}

// TestModelGivesLeftOutReason: Catalog.Model refuses a left-out name with
// LeftOutReason's line, so estimate and the searches say the same; the
// catalog's own entries come first (a key that a left-out predicate would
// claim is found, not refused).
func TestModelGivesLeftOutReason(t *testing.T) {
	c := &model.Catalog{Models: []model.Architecture{{Key: "phi-4"}, {Key: "flux-test", Aliases: []string{"sd3-test"}}}}
	for _, name := range []string{"flux", "microsoft/Phi-4-reasoning", "Mistral-Small-3.1-24B-Instruct-2503", "qwen3-30b-a3b-thinking-2507"} {
		reason, _ := model.LeftOutReason(name)
		_, err := c.Model(name)
		var ke *model.KindError
		if !errors.Is(err, model.ErrNotFound) || !errors.As(err, &ke) || ke.Msg.Key != reason.Key || ke.Msg.String() != reason.String() {
			t.Errorf("Model(%q) = %v, want not found with %q", name, err, reason)
		}
	}
	for _, name := range []string{"flux-test", "sd3-test", "phi-4"} {
		if _, err := c.Model(name); err != nil {
			t.Errorf("Model(%q): %v, want the catalog's entry", name, err)
		}
	}
}

// FuzzLeftOutReason: any text is a name LeftOutReason answers without
// panicking; a reason it gives names the text, is one line whatever the
// name (%q quotes a newline), is recognised by IsLeftOutReason and is the
// line Catalog.Model refuses that name with.
func FuzzLeftOutReason(f *testing.F) {
	for _, s := range []string{"flux", "black-forest-labs/FLUX.1-dev", "sd3.5", "Phi-4-reasoning-plus", "mistral small 3.2",
		"Qwen/Qwen3-4B-Thinking-2507", "flu", "phi-4", "/", "flux\n", "ＦＬＵＸ", "qwen3\xffthinking2507"} {
		f.Add(s)
	}
	c := &model.Catalog{}
	f.Fuzz(func(t *testing.T, name string) {
		m, ok := model.LeftOutReason(name)
		if !ok {
			if !m.IsZero() {
				t.Fatalf("LeftOutReason(%q): ok false with %q", name, m)
			}
			return
		}
		s := m.String()
		if !strings.Contains(s, "left out on purpose") || strings.Contains(s, "\n") || !model.IsLeftOutReason(m) {
			t.Fatalf("LeftOutReason(%q) = %q", name, s)
		}
		if _, err := c.Model(name); err == nil || !strings.HasSuffix(err.Error(), s) {
			t.Fatalf("Model(%q) = %v, want %q", name, err, s)
		}
	})
}
