package tui

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestJobHoursAddUp: the detail's "time × price = cost" line shows the
// hours with the fewest decimals that make the product the cost shown.
func TestJobHoursAddUp(t *testing.T) {
	for _, tc := range []struct {
		hours, perHour, jobUSD float64
		want                   string
	}{
		{1.004, 6.99, 1.004 * 6.99, "1.004 h"}, // 1.0 h × $6.99 would be $6.99, not $7.02
		{2.5, 2, 5, "2.5 h"},
		{2.3, 2.29, 2.3 * 2.29, "2.3 h"},
		{3.26, 10, 32.6, "3.26 h"},
		{2.3, 2.29, 100, "2.3 h"}, // billed otherwise (a term's minimum): one decimal
		{0.43, 1.29, 0.43 * 1.29, "26 min"},
		{72, 1, 72, "3.0 days"},
	} {
		o := &model.Offer{JobHours: tc.hours, USDPerHour: tc.perHour, JobUSD: tc.jobUSD}
		if got := jobHoursIn(nil, o); got != tc.want {
			t.Errorf("%g h at $%g/h = $%g: %q, want %q", tc.hours, tc.perHour, tc.jobUSD, got, tc.want)
		}
	}
}

// TestCountGrouped: counts of ten thousand and more are grouped in
// English, as the other counts beside them are.
func TestCountGrouped(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{1, "1 offer"}, {9999, "9999 offers"}, {100207, "100,207 offers"}} {
		if got := countIn(nil, tc.n, "offer"); got != tc.want {
			t.Errorf("countIn(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
