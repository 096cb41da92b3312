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

// Trap (reservedmonth): under --pricing reserved-1y at --hours-per-month
// 200 a $0.44/h offer showed $88.77 a month and passed --budget-month 100,
// while its Commitment line said $324/month committed: a commitment bills
// every month in full, used or not (CommitmentHours), so its month is
// 730 h × the price whatever the hours used; on demand and spot bill the
// hours used.
func TestMonthlyUSD(t *testing.T) {
	for _, tc := range []struct {
		name         string
		p            Pricing
		price, hours float64
		want         float64
	}{
		{"on-demand at 200 h: $0.44 × 200 = $88.00", OnDemand, 0.44, 200, 88},
		{"spot at 200 h: $0.44 × 200 = $88.00", Spot, 0.44, 200, 88},
		{"on-demand always on: $0.44 × 730 = $321.20", OnDemand, 0.44, 730, 321.20},
		{"reserved-1y at 200 h bills the month: $0.44 × 730 = $321.20", Reserved1y, 0.44, 200, 321.20},
		{"reserved-3y at 0.001 h bills the month: $0.32 × 730 = $233.60", Reserved3y, 0.32, 0.001, 233.60},
		{"reserved-1y always on: $0.44 × 730 = $321.20", Reserved1y, 0.44, 730, 321.20},
		// each hour past 730 is a committed hour too, as plan.Phase.Cost bills them
		{"reserved-1y over a 31-day month: $0.44 × 744 = $327.36", Reserved1y, 0.44, 744, 327.36},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MonthlyUSD(tc.p, tc.price, tc.hours); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("MonthlyUSD(%s, $%g/h, %g h) = $%.4f, want $%.2f", tc.p, tc.price, tc.hours, got, tc.want)
			}
		})
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
