package report

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
)

// TestSpotJobCostHandWorked: the savings' spot pricer (SpotJobCost) is
// the Spot line's estimate (decide.ForOffer → SpotExpectedCost), worked by
// hand for a 2 h job (W) on one instance at $10/h spot:
//
//   - checkpoint: 225,000 MiB at the default 125 MiB/s = 1,800 s, δ = 0.5 h;
//   - λ = 0.01/h (monthly fraction 1 − e^(−7.3)), so M = 100 h and Daly's
//     τ = √(2·0.5·100)·(1 + √0.0025/3 + 0.0025/9) − 0.5 = 9.669 h, past
//     W: no checkpoint, δ not paid, τ = W = 2 h;
//   - B = W = 2 h; L = R + τ/2 = 1/6 + 1 = 1.16667 h;
//   - T = B/(1 − λL) = 2/0.98833 = 2.02361 h, so $20.2361 expected.
//
// Against on-demand at $10/h ($20) spot is no saving (the same hourly
// price and the risk of a restart); at $12/h ($24) it saves $24 − $20.24
// = $3.76. A rate that reclaims every instance (100% a month) never
// finishes: no price (ok false).
func TestSpotJobCostHandWorked(t *testing.T) {
	const (
		w       = 2.0
		spotUSD = 10.0
		wantT   = 2 / (1 - 0.01*(1.0/6+1))
	)
	for _, tt := range []struct {
		name      string
		onDemand  float64
		perMonth  float64
		wantUSD   float64 // expected spot cost
		wantSaved float64 // on-demand job − wantUSD
		wantOK    bool
	}{
		{"on-demand $10/h: $20 − $20.24 = −$0.24, no saving", 10, -math.Expm1(-7.3), wantT * spotUSD, 20 - wantT*spotUSD, true},
		{"on-demand $12/h: $24 − $20.24 = $3.76 saved", 12, -math.Expm1(-7.3), wantT * spotUSD, 24 - wantT*spotUSD, true},
		{"no interruptions: W × $10 = $20, no checkpoint paid", 12, 0, w * spotUSD, 24 - w*spotUSD, true},
		{"every instance reclaimed: never finishes", 12, 1, 0, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := &model.Instance{Provider: "p", Type: "t", GPU: "g", GPUCount: 1,
				Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: tt.onDemand, SpotUSD: spotUSD}}}
			cat := &model.Catalog{Instances: []model.Instance{*in}}
			cat.Index()
			in = &cat.Instances[0]
			e := &model.Estimate{Workload: model.Workload{Settings: model.Settings{Task: model.TaskFinetune, Strategy: model.DDP}}}
			e.States.Weights = 225000 * model.MiB / 2
			e.States.OptimizerStates = 225000 * model.MiB / 2
			o := &model.Offer{Instance: in, Region: "r", Pricing: model.Spot, USDPerHour: spotUSD, Instances: 1,
				HasJob: true, JobHours: w, JobUSD: w * spotUSD, Estimate: e}
			rate := decide.InterruptionRate{PerMonth: tt.perMonth}
			din := DecideInput{Catalog: cat, Rate: func(string, string, string) decide.InterruptionRate { return rate },
				Spot: decide.SpotAssumptions{CheckpointWriteBytesPerSecond: decide.DefaultCheckpointWriteBytesPerSecond, RestartHours: decide.DefaultRestartHours}}
			usd, ok := SpotJobCost(din.Catalog, din.Rate, din.Spot, model.HoursPerMonth)(o)
			if ok != tt.wantOK || math.Abs(usd-tt.wantUSD) > 1e-9 {
				t.Fatalf("SpotJobCost = $%.6f, %v; want $%.6f, %v", usd, ok, tt.wantUSD, tt.wantOK)
			}
			if !ok {
				return
			}
			od := decide.ForOffer(cat, o, rate, din.Spot, model.HoursPerMonth)
			if od.Spot == nil || od.Spot.ExpectedUSD != usd || math.Abs(od.Spot.SavingUSD-tt.wantSaved) > 1e-9 {
				t.Errorf("Spot line %+v; want expected $%.6f (the savings') saving $%.6f", od.Spot, usd, tt.wantSaved)
			}
		})
	}
	if SpotJobCost(nil, nil, decide.SpotAssumptions{}, 0) != nil {
		t.Error("without rates the savings price spot at the bare rate (nil pricer), as the offers have no Spot line")
	}
}
