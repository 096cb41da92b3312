package advice

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestJobCostUnits: a savings eval weighs a job by its whole cost, a
// commitment at least its term ($0.44/h × 8,760 h = $3,854.40 for a
// 12.1 h job), and without a job every pricing by the month: on demand
// the hours used ($0.29 × 100 h = $29), a commitment the 730 h it bills
// ($0.44 × 730 = $321.20), not its whole term (walk48: $3,888 against
// $29 read "saves 99%").
func TestJobCostUnits(t *testing.T) {
	for _, tt := range []struct {
		name string
		o    model.Offer
		want float64
	}{
		{"on-demand month", model.Offer{Pricing: model.OnDemand, USDPerHour: 0.29, MonthlyUSD: 29}, 29},
		{"reserved-1y month", model.Offer{Pricing: model.Reserved1y, USDPerHour: 0.44, MonthlyUSD: 0.44 * 730}, 0.44 * 730},
		{"reserved-1y job", model.Offer{Pricing: model.Reserved1y, USDPerHour: 0.44, HasJob: true, JobHours: 12.1, JobUSD: 0.44 * 12.1}, 0.44 * 8760},
		{"on-demand job", model.Offer{Pricing: model.OnDemand, USDPerHour: 0.29, HasJob: true, JobHours: 12.1, JobUSD: 0.29 * 12.1}, 0.29 * 12.1},
	} {
		if got := jobCost(&tt.o); math.Abs(got-tt.want) > 1e-9*tt.want { // 0.44 × 730 × 12 and 0.44 × 8760 differ in the last bit
			t.Errorf("%s: jobCost = %g, want %g", tt.name, got, tt.want)
		}
	}
}
