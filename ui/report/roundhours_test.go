package report

import "testing"

// TestRoundHours: job hours keep 3 decimals, and below an hour 4
// significant digits, so a job of seconds is not 0 h.
func TestRoundHours(t *testing.T) {
	for _, tt := range []struct {
		name    string
		h, want float64
	}{
		{"0.25 s is 6.944e-5 h, not 0", 0.25 / 3600, 6.944e-5},
		{"40 s is 0.01111 h, not 0.011", 40.0 / 3600, 0.01111},
		{"0.12345 h to 4 digits", 0.12345, 0.1235},
		{"1.0714 h to 3 decimals", 1.0714, 1.071},
		{"12345.6789 h keeps 3 decimals", 12345.6789, 12345.679},
		{"0 stays 0", 0, 0},
	} {
		if got := RoundHours(tt.h); got != tt.want {
			t.Errorf("%s: RoundHours(%g) = %g, want %g", tt.name, tt.h, got, tt.want)
		}
	}
}

// TestRoundUSD: a job's cost keeps the cent, and below half a cent two
// significant digits as the table's SmallUSD writes it, so a job of
// seconds is not $0 in JSON beside "$0.0000096" in the table.
func TestRoundUSD(t *testing.T) {
	for _, tt := range []struct {
		name    string
		v, want float64
	}{
		{"$0.0000096 stays, not 0", 9.6123e-6, 9.6e-6},
		{"$0.0049 to 2 digits", 0.004949, 0.0049},
		{"$0.005 rounds to the cent", 0.005, 0.01},
		{"$6.4968 to the cent", 6.4968, 6.5},
		{"0 stays 0", 0, 0},
	} {
		if got := RoundUSD(tt.v); got != tt.want {
			t.Errorf("%s: RoundUSD(%g) = %g, want %g", tt.name, tt.v, got, tt.want)
		}
	}
}
