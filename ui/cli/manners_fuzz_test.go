package cli

import (
	"strings"
	"testing"
)

// FuzzSuggestFlag: any typed flag name gives a real flag or nothing.
func FuzzSuggestFlag(f *testing.F) {
	for _, s := range []string{"output", "outptu", "", "o", "--", "ＧＰＵ", "\x00\xff", strings.Repeat("a", 300)} {
		f.Add(s)
	}
	names := []string{"model", "gpu", "gpus", "tp", "output", "json"}
	f.Fuzz(func(t *testing.T, s string) {
		got := suggestFlag(s, names)
		if got != "" && !strings.Contains(strings.Join(names, " "), got) {
			t.Fatalf("suggestFlag(%q) = %q, not a flag", s, got)
		}
	})
}

// FuzzCompleteList: a comma list being typed completes to itself plus one
// name, for any input.
func FuzzCompleteList(f *testing.F) {
	for _, s := range []string{"", ",", "aws,", "aws,g", ",,,", "a,b,c,", "\xff,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, _ := list(s, []string{"aws", "gcp"})
		head := s[:strings.LastIndex(s, ",")+1]
		for _, c := range out {
			if !strings.HasPrefix(c, head) || (c[len(head):] != "aws" && c[len(head):] != "gcp") {
				t.Fatalf("list(%q) gave %q", s, c)
			}
		}
	})
}
