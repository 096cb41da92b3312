package model

import "testing"

func TestDecimalText(t *testing.T) {
	for s, want := range map[string]bool{
		"0.4": true, "2.5e-3": true, "-1": true, "+3.": true, ".5": true, "1E+05": true,
		"": false, ".": false, "1e": false, "1e+": false, "0x1p-3": false, "1_0": false,
		"Inf": false, "NaN": false, "1.2.3": false, " 1": false, "1,5": false, "--1": false,
	} {
		if got := DecimalText(s); got != want {
			t.Errorf("DecimalText(%q) = %v, want %v", s, got, want)
		}
	}
}
