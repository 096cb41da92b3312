package config

import (
	"github.com/gpuplan/gpuplan/model"

	"errors"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestTOMLValueError: the TOML library's type errors in any file read
// like a config file's ("want a whole number such as 8, got a string"),
// key and line kept; other errors are not its business (nil).
func TestTOMLValueError(t *testing.T) {
	var into struct {
		Instance []struct {
			GPUCount int     `toml:"gpu_count"`
			Price    float64 `toml:"price"`
		} `toml:"instance"`
	}
	for _, tt := range []struct {
		name, doc string
		want      *Error
	}{
		{"a quoted count", "[[instance]]\ngpu_count = \"8\"\n", &Error{Key: "instance.gpu_count", Line: 2, Msg: model.Msg("want a whole number such as 8, got a string")}},
		{"a count as a table", "[[instance]]\nprice = 1.5\ngpu_count = { n = 8 }\n", &Error{Key: "instance.gpu_count", Line: 3, Msg: model.Msg("want a whole number such as 8, got a table")}},
		{"not a type error", "[[instance]]\ngpu_count = \n", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := toml.Decode(tt.doc, &into)
			if err == nil {
				t.Fatal("decoded")
			}
			got := TOMLValueError(err)
			if (got == nil) != (tt.want == nil) || got != nil && (got.Key != tt.want.Key || got.Line != tt.want.Line || got.Msg.String() != tt.want.Msg.String()) {
				t.Errorf("TOMLValueError(%q) = %+v, want %+v", err, got, tt.want)
			}
			if got != nil && !errors.Is(got, ErrInvalid) {
				t.Error("not an ErrInvalid")
			}
		})
	}
}
