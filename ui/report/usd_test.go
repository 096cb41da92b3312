package report

import (
	"math"
	"testing"
)

// TestUSDPerHour: one rule per price column, worked by hand: two decimals
// from $1, four below, two significant digits below $0.0001 (new-user
// trial, L9: "$0.3785", "$0.42", "$0.526", "$23.6" in one column, and an
// overlay's 0.000001 USD/h shown as "$0").
func TestUSDPerHour(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{0.3785, "$0.3785"}, // aws g4ad.xlarge: four decimals as listed
		{0.42, "$0.4200"},   // the same four below $1
		{0.526, "$0.5260"},
		{23.6, "$23.60"}, // two from $1
		{1, "$1.00"},
		{113.593, "$113.59"},
		{1113.5, "$1,113.50"},
		{0.99995, "$1.0000"}, // rounds at four decimals, as printed
		{0.0001, "$0.0001"},
		{0.000001, "$0.0000010"}, // not "$0"
		{0.0000123, "$0.000012"},
		{0, "—"},
		{-1, "—"},
		{math.NaN(), "—"},
	} {
		if got := USDPerHour(tt.v); got != tt.want {
			t.Errorf("USDPerHour(%g) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

// TestUSDSmall: an amount cents would print as $0.00 keeps two
// significant digits; cents otherwise, as before.
func TestUSDSmall(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{0.000001, "$0.0000010"},
		{0.0012, "$0.0012"},
		{0.001, "$0.0010"},
		{0.00499, "$0.0050"},
		{0.005, "$0.01"}, // cents from here, rounded as the JSON's Round
		{0, "$0.00"},
		{1.861 * 5, "$9.31"}, // 9.30499… in binary: the JSON's Round says 9.31 (walk37: the table said $9.30)
		{2.675, "$2.68"},
		{1.234, "$1.23"},
		{14600, "$14,600"},
	} {
		if got := USD(tt.v); got != tt.want {
			t.Errorf("USD(%g) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

// TestMoneyNeverLong: whatever figure reaches the money formatters, they
// print a short string (attack test 3, L4: 1e-300 printed as a
// 300-character figure).
func TestMoneyNeverLong(t *testing.T) {
	for _, tt := range []struct {
		v            float64
		usd, perHour string
	}{
		{1e-7, "$0.00000010", "$0.00000010"},
		{1.5e-8, "$1.5e-08", "$1.5e-08"},
		{1e-300, "$1.0e-300", "$1.0e-300"},
		{5e-324, "$4.9e-324", "$4.9e-324"}, // the smallest float64
		{math.MaxFloat64, "$1.8e+308", "$1.8e+308"},
		{math.Inf(1), "$+Inf", "$+Inf"},
	} {
		if got := USD(tt.v); got != tt.usd {
			t.Errorf("USD(%g) = %q, want %q", tt.v, got, tt.usd)
		}
		if got := USDPerHour(tt.v); got != tt.perHour {
			t.Errorf("USDPerHour(%g) = %q, want %q", tt.v, got, tt.perHour)
		}
	}
	for e := -330; e <= 310; e++ {
		for _, m := range []float64{1, 4.99, 9.999} {
			v := m * math.Pow(10, float64(e))
			if u, h := USD(v), USDPerHour(v); len(u) > 24 || len(h) > 24 {
				t.Errorf("%g: USD %q, USDPerHour %q: longer than 24 bytes", v, u, h)
			}
		}
	}
}
