package model

import "testing"

// TestJobBand: the job cost carries the 90% range of the job time
// (Estimate.TimeBand), billed as JobUSD is: hours × price, a reserved
// term at least its commitment; nothing without a job time.
func TestJobBand(t *testing.T) {
	e := &Estimate{Hours: 10, HasTime: true, TimeBand: [2]float64{5, 34}}
	for _, tt := range []struct {
		name       string
		o          Offer
		hours, usd [2]float64
		ok         bool
	}{
		// 5 h × $2 = $10, 34 h × $2 = $68.
		{"on-demand", Offer{Pricing: OnDemand, USDPerHour: 2, HasJob: true, JobHours: 10, JobUSD: 20, Estimate: e}, [2]float64{5, 34}, [2]float64{10, 68}, true},
		// A 1-year term bills 8760 h × $2 = $17,520 whatever the job uses.
		{"reserved", Offer{Pricing: Reserved1y, USDPerHour: 2, HasJob: true, JobHours: 10, JobUSD: 17520, Estimate: e}, [2]float64{5, 34}, [2]float64{17520, 17520}, true},
		{"no job", Offer{Pricing: OnDemand, USDPerHour: 2, Estimate: &Estimate{}}, [2]float64{}, [2]float64{}, false},
	} {
		h, usd, ok := tt.o.JobBand()
		if ok != tt.ok || h != tt.hours || usd != tt.usd {
			t.Errorf("%s: JobBand() = %v, %v, %v; want %v, %v, %v", tt.name, h, usd, ok, tt.hours, tt.usd, tt.ok)
		}
	}
}
