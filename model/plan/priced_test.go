package plan

import (
	"errors"
	"strings"
	"testing"
)

// TestPriced: Priced is Cost's phases and total, and refuses what
// gpuplan plan refuses: a phase Cost cannot price (named), and a total
// that is not a finite number of dollars (a plan built in code past
// Decode's bounds: 1e308 $/h for 1e308 h).
func TestPriced(t *testing.T) {
	job := Phase{Name: "tune", USDPerHour: 1.5, JobHours: 2}             // 2 h × $1.5 = $3
	svc := Phase{Name: "serve", USDPerHour: 0.5, Months: 1}              // 730 h × $0.5 = $365
	huge := Phase{Name: "huge", USDPerHour: 1e308, JobHours: 1e308}      // +Inf
	noUSD := Phase{Name: "serve", Months: 1}                             // usd_per_hour left out
	both := Phase{Name: "tune", USDPerHour: 1.5, JobHours: 2, Months: 1} // a job and a service
	for _, tt := range []struct {
		name   string
		phases []Phase
		total  float64
		want   string // in the error; "" none
	}{
		{"job and service", []Phase{job, svc}, 368, ""},
		{"no phases", nil, 0, "no phases"},
		{"usd_per_hour left out", []Phase{job, noUSD}, 0, `phase "serve": usd_per_hour is missing`},
		{"both durations", []Phase{both}, 0, `phase "tune": give job_hours (a job) or months (a service), not both or neither`},
		{"total not finite", []Phase{job, huge}, 0, "the total is not a finite number of dollars"},
	} {
		pl := Plan{Phases: tt.phases}
		phases, total, err := pl.Priced()
		if tt.want == "" {
			if err != nil || len(phases) != len(tt.phases) || total != tt.total {
				t.Errorf("%s: %d phases, total %g, %v; want %g", tt.name, len(phases), total, err, tt.total)
			}
			continue
		}
		if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) || phases != nil || total != 0 {
			t.Errorf("%s: %v (total %g); want ErrInvalid with %q", tt.name, err, total, tt.want)
		}
	}
}
