package advice

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestSavingsSpotExpected: with a SpotJobCost, "pay spot" is priced at
// spot's expected cost with interruptions, not the bare rate × the
// uninterrupted hours W (recommend said "pay spot saves $46.18 (42%)"
// beside a spot estimate of $129 against $109 on demand for the same
// offer). One GPU type, on-demand $4/h (pa) and spot $1/h (pb), so the
// job is W hours everywhere: on-demand costs $4W, spot at the bare rate
// $1W; the pricer says spot's expected cost is f × the bare cost.
func TestSavingsSpotExpected(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskLoRA, MicroBatch: 1, SeqLen: 512, DatasetTokens: 1e7, GPUs: 1}, Model: modeltest.Llama2_7B}
	cat := &model.Catalog{
		GPUs: []model.GPU{modeltest.Catalog().GPUs[2]}, // g80
		Instances: []model.Instance{
			{Provider: "pa", Type: "a.big", GPU: "g80", GPUCount: 1, VCPUs: 16, MemoryGiB: 256, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 4}}},
			{Provider: "pb", Type: "b.big", GPU: "g80", GPUCount: 1, VCPUs: 16, MemoryGiB: 256, Prices: []model.RegionPrice{{Region: "r2", OnDemandUSD: 6, SpotUSD: 1}}},
		},
	}
	cat.Index()
	const never = -1 // the pricer says the spot job would not finish
	for _, tt := range []struct {
		name    string
		pricing model.Pricing // the base's
		f       float64       // spot's expected cost ÷ its bare cost; 0: no pricer (bare rate)
		change  string
		// want is the change's cost and saving in units of W (hours), and
		// the saving in percent; absent: the change is not listed.
		wantUSD, wantSaving, wantPct float64
		absent                       bool
	}{
		{name: "no pricer: bare rate $1W against $4W saves $3W (75%)", f: 0, change: "pay spot instead of on-demand",
			wantUSD: 1, wantSaving: 3, wantPct: 75},
		{name: "expected 2× bare: $2W against $4W saves $4W − $2W = $2W (50%)", f: 2, change: "pay spot instead of on-demand",
			wantUSD: 2, wantSaving: 2, wantPct: 50},
		{name: "expected 5× bare: $5W against $4W is no saving: costs $1W more (−25%)", f: 5, change: "pay spot instead of on-demand",
			wantUSD: 5, wantSaving: -1, wantPct: -25},
		{name: "expected exactly on-demand's: 4× bare saves $0", f: 4, change: "pay spot instead of on-demand",
			wantUSD: 4, wantSaving: 0, wantPct: 0},
		{name: "spot job never finishes: no spot change", f: never, change: "pay spot instead of on-demand", absent: true},
		{name: "base on spot, expected 5×: now $5W, on-demand $4W saves $1W (20%)", pricing: model.Spot, f: 5, change: "pay on-demand instead of spot",
			wantUSD: 4, wantSaving: 1, wantPct: 20},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := model.Query{Pricing: tt.pricing}
			rec, err := model.Recommend(w, cat, q)
			if err != nil || len(rec.Offers) == 0 {
				t.Fatalf("Recommend: %v, %d offers", err, len(rec.Offers))
			}
			hours := rec.Offers[0].JobHours
			var spot SpotJobCost
			switch {
			case tt.f == never:
				spot = func(*model.Offer) (float64, bool) { return 0, false }
			case tt.f > 0:
				spot = func(o *model.Offer) (float64, bool) {
					if o.Pricing != model.Spot {
						t.Errorf("spot pricer called for a %s offer", o.Pricing)
					}
					return tt.f * o.JobUSD, true
				}
			}
			_, got, err := Savings(cat, w, q, &rec, 6, spot)
			if err != nil {
				t.Fatal(err)
			}
			var s *Saving
			for i := range got {
				if got[i].Change == tt.change {
					s = &got[i]
				}
			}
			if tt.absent {
				if s != nil {
					t.Errorf("%q listed: %+v, want none", tt.change, *s)
				}
				return
			}
			if s == nil {
				t.Fatalf("%q not listed (%d changes)", tt.change, len(got))
			}
			near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
			if !near(s.USD, tt.wantUSD*hours) || !near(s.SavingUSD, tt.wantSaving*hours) || !near(s.SavingPct, tt.wantPct) {
				t.Errorf("USD %.6g, saving %.6g (%.4g%%); want %.6g, %.6g (%.4g%%) with W = %.6g h",
					s.USD, s.SavingUSD, s.SavingPct, tt.wantUSD*hours, tt.wantSaving*hours, tt.wantPct, hours)
			}
			if s.Offer == nil || s.Offer.Pricing != string(model.Spot) && tt.pricing != model.Spot {
				t.Errorf("offer %+v, want the spot offer", s.Offer)
			}
		})
	}
}
