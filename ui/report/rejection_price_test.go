package report

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestRejectionPrice: a near miss's $/h is to the cent at every size, as
// the reason beside it says prices and limits (new-user walk: "$100/h"
// for $100.13 beside "$100.13/h is above the $50.00/h limit").
func TestRejectionPrice(t *testing.T) {
	for _, tt := range []struct {
		usd       float64
		instances int
		want      string
	}{
		{0.42, 1, "$0.42/h"},
		{100.13, 1, "$100.13/h"},
		{117.51, 1, "$117.51/h"},
		{1113.59, 1, "$1,113.59/h"},
		{64 * 0.44, 64, "64 × $0.44/h"},
	} {
		x := model.Rejection{USDPerHour: tt.usd, Instances: tt.instances}
		if got := RejectionPrice(nil, &x); got != tt.want {
			t.Errorf("RejectionPrice(%g × %d) = %q, want %q", tt.usd, tt.instances, got, tt.want)
		}
	}
}
