package model

import "testing"

func TestFormatCount(t *testing.T) {
	for _, tt := range []struct {
		in   float64
		want string
	}{{6738415616, "6.74B"}, {110e6, "110M"}, {1.28e6, "1.28M"}, {512, "512"}, {88000, "88k"}, {2e12, "2T"},
		{999_885_952, "1B"}, {999_499_999, "999M"}, {9_996_000, "10M"}, {999_950_000_000, "1T"}} {
		if got := FormatCount(tt.in); got != tt.want {
			t.Errorf("FormatCount(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestFormatAsGiven: a figure the user set (a deadline in hours) prints
// as written, not rounded to a whole number (walk37: --deadline-hours 0.5
// read "over the 0 h deadline", 2.4 read "the 2 h deadline"); whole
// numbers stay whole and large ones take no exponent.
func TestFormatAsGiven(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{0.5, "0.5"}, {2.4, "2.4"}, {30, "30"}, {48, "48"}, {0.25, "0.25"}, {1e7, "10000000"}, {0.001, "0.001"},
	} {
		if got := FormatAsGiven(tt.v); got != tt.want {
			t.Errorf("FormatAsGiven(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
