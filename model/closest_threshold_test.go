package model

import (
	"slices"
	"testing"
)

// TestClosestThreshold: a suggestion keeps at least half the input's
// letters, and a name of three or fewer letters takes one slip (walk:
// "foo" suggested the provider "do"); a swap of two neighbours is one
// slip (gpc → gcp); letters are counted, not bytes (火星, two Han
// characters of three bytes each, suggested every two-character country).
func TestClosestThreshold(t *testing.T) {
	for _, tt := range []struct {
		in    string
		cands []string
		want  []string
	}{
		{"foo", []string{"do", "aws", "gcp"}, []string{}},
		{"gpc", []string{"do", "aws", "gcp"}, []string{"gcp"}},
		{"lamda", []string{"lambda", "nebius"}, []string{"lambda"}},
		{"火星", []string{"不丹", "中国", "丹麦"}, []string{}},
		{"德過", []string{"德国", "美国"}, []string{"德国"}},
	} {
		if got := Closest(tt.in, tt.cands, 3); !slices.Equal(got, tt.want) {
			t.Errorf("Closest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
