package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/config"
)

// TestDecodeSaysJSON: a JSON file given to gpuplan plan is said to be
// one, as estimate, recommend and export say it (walk49: "line 1:
// expected '.' or '=', but got '{'").
func TestDecodeSaysJSON(t *testing.T) {
	for _, in := range []string{`{"phase": []}`, "\ufeff  \n{\n}"} {
		_, err := Decode([]byte(in))
		if !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), "this is a JSON file, not a gpuplan plan") ||
			!strings.Contains(err.Error(), "TOML") || strings.Contains(err.Error(), "expected '.'") {
			t.Errorf("Decode(%q) = %v, want it said to be JSON", in, err)
		}
	}
}
