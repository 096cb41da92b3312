package model

import "testing"

func TestUSDCents(t *testing.T) {
	for _, tt := range []struct {
		v            float64
		cents, whole string
	}{
		{0.42, "$0.42", "$0"},
		{100.13, "$100.13", "$100"},
		{117.505, "$117.51", "$118"},
		{32695.41, "$32,695.41", "$32,695"},
		{1234567.891, "$1,234,567.89", "$1,234,568"},
		{0.0012, "$0.0012", "$0"},
		{0, "$0.00", "$0"},
	} {
		if got := USDCents(tt.v); got != tt.cents {
			t.Errorf("USDCents(%g) = %q, want %q", tt.v, got, tt.cents)
		}
		if got := USDWhole(tt.v); got != tt.whole {
			t.Errorf("USDWhole(%g) = %q, want %q", tt.v, got, tt.whole)
		}
	}
}
