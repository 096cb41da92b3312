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
