package model

import "testing"

// TestCCAtLeast holds CCAtLeast's one-digit fast path and its strconv
// path to hand-worked answers against 8.0 and 8.9.
func TestCCAtLeast(t *testing.T) {
	for _, c := range []struct {
		cc         string
		at80, at89 bool
	}{
		{"7.5", false, false}, {"8.0", true, false}, {"8.6", true, false}, {"8.9", true, true},
		{"9.0", true, true}, {"10.0", true, true}, {"12.1", true, true}, {"7.10", false, false},
		{"", false, false}, {"8", false, false}, {"x.0", false, false}, {"8.x", false, false},
		{"+8.0", true, false}, {"08.9", true, true},
	} {
		g := GPU{ComputeCapability: c.cc}
		if got := g.CCAtLeast(8, 0); got != c.at80 {
			t.Errorf("%q at least 8.0: %v, want %v", c.cc, got, c.at80)
		}
		if got := g.CCAtLeast(8, 9); got != c.at89 {
			t.Errorf("%q at least 8.9: %v, want %v", c.cc, got, c.at89)
		}
	}
}
