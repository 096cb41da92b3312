package model

import (
	"math"
	"strings"
	"testing"
)

// Trap (issue 17): --pricing reserved-1y priced a 5-minute job on a
// year's reservation at $3.62. The job's bill is the commitment when the
// term bills more than the job runs: hours × price, or term × 730 h ×
// price.
func TestJobBill(t *testing.T) {
	for _, tc := range []struct {
		name             string
		p                Pricing
		price, hours     float64
		bill, commitment float64
	}{
		{"on-demand: the hours it runs", OnDemand, 43.50, 2, 87, 0},
		{"spot: the hours it runs", Spot, 10, 0.5, 5, 0},
		// 12 × 730 = 8,760 h × $43.50 = $381,060
		{"reserved-1y, 5 minutes: the year", Reserved1y, 43.50, 5.0 / 60, 381060, 381060},
		// 36 × 730 = 26,280 h × $2 = $52,560
		{"reserved-3y, 5 minutes: three years", Reserved3y, 2, 5.0 / 60, 52560, 52560},
		// a job longer than the term: 10,000 h × $1 = $10,000 > 8,760 × $1
		{"reserved-1y, a job longer than the term", Reserved1y, 1, 10000, 10000, 8760},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bill, commitment := jobBill(tc.p, tc.price, tc.hours)
			if math.Abs(bill-tc.bill) > 1e-6 || math.Abs(commitment-tc.commitment) > 1e-6 {
				t.Errorf("jobBill = %.2f, %.2f; want %.2f, %.2f", bill, commitment, tc.bill, tc.commitment)
			}
		})
	}
	o := Offer{Pricing: Reserved1y, USDPerHour: 43.50, HasJob: true, JobHours: 5.0 / 60, CommitmentUSD: 381060}
	if w := o.commitmentWarning(); !strings.Contains(w, "reserved-1y commits to 8760 h: $381060") || !strings.Contains(w, "$3.62 at this rate") {
		t.Errorf("warning %q does not name the commitment and the job's own cost", w)
	}
}

// near reports whether got is within rel of want (absolutely near 0 when
// want is 0).
func near(got, want, rel float64) bool {
	if want == 0 {
		return math.Abs(got) < 1e-12
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}
