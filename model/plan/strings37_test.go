package plan

import (
	"errors"
	"testing"

	"github.com/gpuplan/gpuplan/model/config"
)

// TestDecodeTextKeyNotString: a phase's text key written as another TOML
// type is one line naming the phase, the key and what it wants, an
// invalid plan (exit 2), not the TOML decoder's "incompatible types: TOML
// value has type int64; destination has type string" at the line of the
// file's last such key (walk37: pricing = 3).
func TestDecodeTextKeyNotString(t *testing.T) {
	const head = "schema_version = 1\n[[phase]]\nname = \"tune\"\nusd_per_hour = 1.0\njob_hours = 2.0\n"
	tests := []struct{ line, want string }{
		{"pricing = 3", `phase "tune" pricing: want a string such as "on-demand", "spot", "reserved-1y", got a whole number`},
		{"pricing = true", `phase "tune" pricing: want a string such as "on-demand", "spot", "reserved-1y", got true or false`},
		{"provider = 1.5", `phase "tune" provider: want a string such as "aws", got a number`},
		{"region = [\"us-east-1\"]", `phase "tune" region: want a string such as "us-east-1", got an array`},
		{"config = { a = 1 }", `phase "tune" config: want a string such as "tune.toml", got a table`},
	}
	for _, tt := range tests {
		_, err := Decode([]byte(head + tt.line + "\n"))
		if err == nil || err.Error() != tt.want || !errors.Is(err, config.ErrInvalid) {
			t.Errorf("%s: %v, want %q", tt.line, err, tt.want)
		}
	}
	// A phase without a usable name is named by its place.
	_, err := Decode([]byte("schema_version = 1\n[[phase]]\nname = 7\nusd_per_hour = 1.0\njob_hours = 2.0\n"))
	if want := `phase[0].name: want a string such as "fine-tune", got a whole number`; err == nil || err.Error() != want {
		t.Errorf("name = 7: %v, want %q", err, want)
	}
}
