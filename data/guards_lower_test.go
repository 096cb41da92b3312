package data

import (
	"strings"
	"testing"
)

// lowerContains is strings.Contains(strings.ToLower(s), word) for the
// words guard looks for, on any string.
func FuzzLowerContains(f *testing.F) {
	for _, s := range []string{"", "A100", "p4d.24xlarge", "H100-SXM5", "Standard_NC24ads_A100_v4", "a100-pcie", "PCİ", "SXm", "pc", "xPcIx", "ſxm", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, word := range []string{"pci", "sxm"} {
			if got, want := lowerContains(s, word), strings.Contains(strings.ToLower(s), word); got != want {
				t.Errorf("lowerContains(%q, %q) = %v, want %v", s, word, got, want)
			}
		}
	})
}
