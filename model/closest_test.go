package model_test

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestClosestBoundsItsInput: a name longer than 128 runes gets no
// suggestions (and so no edit-distance work), nor does a candidate that long.
func TestClosestBoundsItsInput(t *testing.T) {
	keys := []string{"llama-2-7b", strings.Repeat("l", 200)}
	if got := model.Closest("lama-2-7b", keys, 3); len(got) != 1 || got[0] != "llama-2-7b" {
		t.Errorf("Closest(lama-2-7b) = %q, want [llama-2-7b]", got)
	}
	if got := model.Closest(strings.Repeat("lama-2-7b", 15), keys, 3); got != nil {
		t.Errorf("Closest(135 runes) = %q, want nil", got)
	}
	if got := model.Closest(strings.Repeat("l", 120), keys, 3); len(got) != 0 {
		t.Errorf("Closest(120 × l) = %q: compared a 200-rune candidate", got)
	}
	c := &model.Catalog{Models: []model.Architecture{{Key: "gpt2"}}}
	c.Index()
	_, err := c.Model(strings.Repeat("x", 50<<20))
	if err == nil || len(err.Error()) > 400 {
		t.Errorf("Model(50 MB name): error of %d bytes, want a short one", len(err.Error()))
	}
}

// TestClosestPrefixFirst: a key the input starts ranks before keys one
// edit away (new-user trial: --gpu H10 suggested a10, h20, a10g).
func TestClosestPrefixFirst(t *testing.T) {
	keys := []string{"a10", "h20", "a10g", "h100", "l4"}
	if got := model.Closest("H10", keys, 3); len(got) == 0 || got[0] != "h100" {
		t.Errorf("Closest(H10) = %q, want h100 first", got)
	}
	if got := model.Closest("a1", keys, 3); len(got) < 2 || got[0] != "a10" || got[1] != "a10g" {
		t.Errorf("Closest(a1) = %q, want a10, a10g first", got)
	}
	// Shortest prefix match first; one spelling of a name once.
	keys = []string{"h100-sxm", "h100-nvl", "a10g", "H100", "A10G"}
	if got := model.Closest("h10", keys, 3); len(got) != 3 || got[0] != "H100" {
		t.Errorf("Closest(h10) = %q, want H100 first", got)
	}
	if got := model.Closest("a10x", keys, 3); len(got) != 2 || got[0] != "a10g" || got[1] != "H100" {
		t.Errorf("Closest(a10x) = %q, want [a10g H100]: A10G is a10g", got)
	}
}

// TestModelSuggestsTheSameSize: a did-you-mean for a model not in the
// catalog names only keys of the same size; members of its family of
// other sizes are named as such, with --hf-config for the one asked
// (walk49: google/gemma-3-270m was asked "did you mean gemma-3-27b?", a
// model 100 times larger).
func TestModelSuggestsTheSameSize(t *testing.T) {
	c := &model.Catalog{Models: []model.Architecture{{Key: "gemma-3-27b"}, {Key: "gemma-3-4b"}, {Key: "llama-3.1-8b"}, {Key: "mixtral-8x7b"}}}
	c.Index()
	for _, tt := range []struct{ name, want string }{
		{"google/gemma-3-270m", `model "google/gemma-3-270m" is not in the catalog (the nearest of its family, of other sizes: "gemma-3-27b"); for this one give its config.json with --hf-config`},
		{"gemma-3-12b", `model "gemma-3-12b" is not in the catalog (the nearest of its family, of other sizes: "gemma-3-27b" and "gemma-3-4b")`},
		{"lama-3.1-8b", `unknown model "lama-3.1-8b"; did you mean "llama-3.1-8b"?`},
		{"mixtral-8x7", `unknown model "mixtral-8x7"; did you mean "mixtral-8x7b"?`}, // no size given: a typo may be
		{"mixtral-8x22b", `is not in the catalog (the nearest of its family, of other sizes: "mixtral-8x7b")`},
	} {
		_, err := c.Model(tt.name)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Model(%q) error = %v\nwant it to contain %s", tt.name, err, tt.want)
		}
	}
}
