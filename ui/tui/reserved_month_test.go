package tui

import (
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/report"
)

// Under reserved-1y at 200 hours a month the offer detail's cost block
// bills the whole month, as the commitment does, and says why: the first
// offer's $/h × 730 h (the month model.MonthlyUSD bills), not × 200 h,
// the figure the offers table and the panel show (its MonthlyUSD). On
// demand the same answers bill the 200 h used.
func TestReservedMonthInDetail(t *testing.T) {
	for _, tt := range []struct {
		pricing model.Pricing
		hours   float64
		note    bool
	}{
		{model.Reserved1y, 730, true},
		{model.OnDemand, 200, false},
	} {
		t.Run(string(tt.pricing), func(t *testing.T) {
			cfg := qloraConfig([]string{"gcp"}, tt.pricing, 0)
			cfg.Search.HoursPerMonth = 200
			m := start(t, newTestApp(t, testCatalog(t), Options{Config: cfg}), size(120, 40))
			if m.res == nil || len(m.res.rec.Offers) == 0 {
				t.Fatalf("no %s offers on the first screen", tt.pricing)
			}
			o := &m.res.rec.Offers[0]
			month := report.USD(o.USDPerHour * tt.hours)
			if got := report.USD(o.MonthlyUSD); got != month {
				t.Errorf("offer's monthly %s, want $%.4f/h × %g h = %s", got, o.USDPerHour, tt.hours, month)
			}
			d := flat(ansi.Strip(offerDetail(nil, testStyles(), o, m.res, "2026-11-30", 120)))
			if want := "× " + fmtFloat(tt.hours) + " h per month = " + month + " per month"; !strings.Contains(d, want) {
				t.Errorf("detail: want %q in:\n%s", want, d)
			}
			if got := strings.Contains(d, "(a commitment bills every month in full, used or not)"); got != tt.note {
				t.Errorf("detail: commitment note shown %v, want %v:\n%s", got, tt.note, d)
			}
			// The job line's sum holds: a term bills its 8,760 h whatever
			// the job uses (walk48: "12.1 h × $0.44/h ≈ $3,888").
			job := report.USD(o.USDPerHour) + "/h ≈ " + report.USD(o.JobUSD)
			if tt.note {
				job = "billed as the reserved-1y term: 8760 h × " + report.USD(o.USDPerHour) + "/h = " + report.USD(o.USDPerHour*8760)
			}
			if !o.HasJob || !strings.Contains(d, job) {
				t.Errorf("detail: want %q in:\n%s", job, d)
			}
		})
	}
}

// The serving offers bill their month as training's do: on reserved-1y
// at 200 hours a month, $/h × 730 (model.MonthlyUSD); on demand × 200.
func TestReservedMonthServing(t *testing.T) {
	for _, tt := range []struct {
		pricing model.Pricing
		hours   float64
	}{
		{model.Reserved1y, 730},
		{model.OnDemand, 200},
	} {
		t.Run(string(tt.pricing), func(t *testing.T) {
			m := servingApp(t, 120, 40)
			m.a.Providers, m.a.Pricing, m.a.Hours = []string{"gcp"}, tt.pricing, "200"
			m.recompute()
			if m.res == nil || len(m.res.rec.Offers) == 0 {
				t.Fatalf("no %s serving offers", tt.pricing)
			}
			for _, o := range m.res.rec.Offers {
				if want := o.USDPerHour * tt.hours; math.Abs(o.MonthlyUSD-want) > 1e-9 {
					t.Errorf("%s: monthly $%.2f, want $%.4f/h × %g h = $%.2f", o.Instance.Type, o.MonthlyUSD, o.USDPerHour, tt.hours, want)
				}
			}
		})
	}
}
