package plan

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestReservedBillsEveryMonth: a commitment is billed 730 h a month, used
// or not (model.CommitmentHours; docs/decisions.md, commitment
// break-even), so a reserved phase of N months owes N × 730 h whatever
// its hours_per_month, and at least one whole term; a job owes its hours,
// at least the term (walk37: 18 months × 200 h on reserved-1y was billed
// one term, 8,760 h and $3,888). Hand-worked at the plan's usd_per_hour,
// gcp g2-standard-4 us-east4's on-demand $0.70452 less GCP's 37% 1-year
// discount (data/catalog): 0.70452 × 0.63 = 0.4438476, written 0.4438.
func TestReservedBillsEveryMonth(t *testing.T) {
	const usd = 0.4438
	term1y := 12 * 730 * usd // 3,887.688
	tests := []struct {
		name                 string
		pricing              model.Pricing
		months, hpm, job     float64
		hours, cost          float64
		committed, wholeTerm bool
	}{
		// p10: 18 × 730 = 13,140 h × 0.4438 = 5,831.532, not one term.
		{"18 months × 200 h", model.Reserved1y, 18, 200, 0, 13140, 5831.532, true, false},
		// p11: the whole month already.
		{"18 months", model.Reserved1y, 18, 0, 0, 13140, 5831.532, false, false},
		// p12: 700 h a month still owes 730.
		{"18 months × 700 h", model.Reserved1y, 18, 700, 0, 13140, 5831.532, true, false},
		// p13: 13 × 730 = 9,490 h × 0.4438 = 4,211.662, past the term's 8,760.
		{"13 months × 100 h", model.Reserved1y, 13, 100, 0, 9490, 4211.662, true, false},
		// Shorter than the term: the term, 8,760 h.
		{"6 months × 200 h", model.Reserved1y, 6, 200, 0, 4380, term1y, true, true},
		// 3-year: 36 × 730 × 0.4438 = 11,663.064 owed for 12 months.
		{"12 months × 100 h, 3y", model.Reserved3y, 12, 100, 0, 8760, 11663.064, true, true},
		// p14: a job past the term is billed its hours, each a committed
		// hour: 10,000 × 0.4438 = 4,438 (13.7 months of 730 h).
		{"10,000 h job", model.Reserved1y, 0, 0, 10000, 10000, 4438, false, false},
		{"10 h job", model.Reserved1y, 0, 0, 10, 10, term1y, false, true},
		// Without a commitment the hours run are the hours billed.
		{"on-demand 18 months × 200 h", model.OnDemand, 18, 200, 0, 3600, 1597.68, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Phase{Name: "serve", Pricing: tt.pricing, USDPerHour: usd, Months: tt.months, HoursPerMonth: tt.hpm, JobHours: tt.job}
			c, err := p.Cost()
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(c.Hours-tt.hours) > 1e-9 || math.Abs(c.USD-tt.cost) > 1e-6 || c.Committed != tt.committed {
				t.Errorf("billed %g h, $%.4f, committed %v; want %g h, $%.4f, %v", c.Hours, c.USD, c.Committed, tt.hours, tt.cost, tt.committed)
			}
			if whole := c.CommitmentUSD > 0 && c.CommitmentUSD >= c.USD; whole != tt.wholeTerm {
				t.Errorf("whole term owed: %v, want %v (commitment $%.2f, cost $%.2f)", whole, tt.wholeTerm, c.CommitmentUSD, c.USD)
			}
		})
	}
}

// TestCheckTerm: a reserved phase billed past its term says how: every
// month at 730 h at the committed rate, and that a second commitment is a
// whole term (walk37: a 10,000 h job on reserved-1y said nothing); one
// within its term, or on demand, says nothing.
func TestCheckTerm(t *testing.T) {
	pl := &Plan{Phases: []Phase{
		{Name: "job", Pricing: model.Reserved1y, USDPerHour: 0.4438, JobHours: 10000},
		{Name: "svc", Pricing: model.Reserved1y, USDPerHour: 0.4438, Months: 18, HoursPerMonth: 200},
		{Name: "within", Pricing: model.Reserved1y, USDPerHour: 0.4438, Months: 12, HoursPerMonth: 100},
		{Name: "3y", Pricing: model.Reserved3y, USDPerHour: 0.4438, Months: 18},
		{Name: "od", Pricing: model.OnDemand, USDPerHour: 0.4438, JobHours: 10000},
	}}
	got := CheckTerm(pl)
	want := []string{
		`phase "job" is billed 10000 h on reserved-1y, past its 12-month term (8760 h): priced at the committed rate for every month it runs, 13.7 months of 730 h; a commitment is sold a whole term at a time, so the months past the first term need a second one (another 12 months owed) or another pricing mode`,
		`phase "svc" is billed 13140 h on reserved-1y, past its 12-month term (8760 h): priced at the committed rate for every month it runs, 18 months of 730 h; a commitment is sold a whole term at a time, so the months past the first term need a second one (another 12 months owed) or another pricing mode`,
	}
	if len(got) != len(want) {
		t.Fatalf("%d notes, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Errorf("note %d:\n%s\nwant\n%s", i, got[i], want[i])
		}
	}
}
