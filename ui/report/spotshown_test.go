package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
)

// TestDecideSpotShownRanksByExpected: under --pricing spot Decide ranks
// the offers by what the views show, the expected job cost with
// interruptions (decide.SpotExpectedCost), and ShownOffers carries it,
// while the recommendation's own offers keep their uninterrupted figures
// (JSON's job_cost_usd). Worked by hand, each a 20 h job (W) on one
// instance with a 225,000 MiB checkpoint at the default 125 MiB/s
// (δ = 0.5 h) and a 10 min restart, long enough to take checkpoints (at
// 2 h a would take none and expect $20.24, still below b's $22: the
// order would not turn):
//
//   - "a" at $10/h spot, λ = 0.01/h: Daly's τ = √(2·0.5·100)·(1 +
//     √0.0025/3 + 0.0025/9) − 0.5 = 9.669444 h, below W; 20/τ = 2.068,
//     so n = ⌈W/τ⌉ − 1 = 2 writes and B = W + n·δ = 20 + 2·0.5 = 21 h,
//     L = R + (τ+δ)/2 = 1/6 + 5.084722 = 5.251389 h, T = B/(1 − λL) =
//     21/0.9474861 = 22.163913 h: $221.64 expected, $200 bare;
//   - "b" at $11/h spot, never interrupted (λ = 0): T = W, $220 both.
//
// Bare, a ($200) ranks before b ($220); expected, b ($220) before a ($221.64).
// a's time range [5 h, 40 h] becomes the expected time at each end:
// W = 5 h is shorter than τ, so no checkpoint: δ not paid, B = 5,
// L = 1/6 + 5/2 = 2.666667, T = 5/0.9733333 = 5.136986 h; W = 40 h:
// 40/τ = 4.137, n = 4, B = 40 + 4·0.5 = 42, L = 5.251389,
// T = 42/0.9474861 = 44.327827 h.
func TestDecideSpotShownRanksByExpected(t *testing.T) {
	const w = 20.0
	tau := 10*(1+0.05/3+0.0025/9) - 0.5 // Daly's, 9.669444 h
	l := 1.0/6 + (tau+0.5)/2
	wantT := (w + 2*0.5) / (1 - 0.01*l) // n = ⌈20/τ⌉ − 1 = 2 writes
	cat := &model.Catalog{Instances: []model.Instance{
		{Provider: "pa", Type: "a", GPU: "g", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 30, SpotUSD: 10}}},
		{Provider: "pb", Type: "b", GPU: "g", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 30, SpotUSD: 11}}},
	}}
	cat.Index()
	offer := func(i int, usd float64, band [2]float64) model.Offer {
		e := &model.Estimate{Workload: model.Workload{Settings: model.Settings{Task: model.TaskFinetune, Strategy: model.DDP}}}
		e.States.Weights, e.States.OptimizerStates = 225000*model.MiB/2, 225000*model.MiB/2
		e.TimeBand = band
		return model.Offer{Instance: &cat.Instances[i], Region: "r", Pricing: model.Spot, USDPerHour: usd, Instances: 1,
			HasJob: true, JobHours: w, JobUSD: w * usd, Estimate: e}
	}
	rates := map[string]decide.InterruptionRate{"pa": {PerMonth: -math.Expm1(-7.3)}, "pb": {}}
	in := func(p model.Pricing) DecideInput {
		return DecideInput{Catalog: cat, Query: model.Query{Pricing: p},
			Rate: func(provider, _, _ string) decide.InterruptionRate { return rates[provider] },
			Spot: decide.SpotAssumptions{CheckpointWriteBytesPerSecond: decide.DefaultCheckpointWriteBytesPerSecond, RestartHours: decide.DefaultRestartHours}}
	}
	bare := []model.Offer{offer(0, 10, [2]float64{5, 40}), offer(1, 11, [2]float64{})}
	rec := &model.Recommendation{Sort: model.SortJob, Offers: bare}
	d := Decide(rec, in(model.Spot))
	if rec.Offers[0].Instance.Type != "b" || rec.Offers[1].Instance.Type != "a" {
		t.Fatalf("order %s, %s; want b ($220 expected) before a ($221.64 expected)", rec.Offers[0].Instance.Type, rec.Offers[1].Instance.Type)
	}
	if bare[0].Instance.Type != "a" {
		t.Error("Decide reordered the caller's slice; want a copy")
	}
	shown := d.ShownOffers(rec)
	if a := &shown[1]; math.Abs(a.JobHours-wantT) > 1e-9 || math.Abs(a.JobUSD-wantT*10) > 1e-9 {
		t.Errorf("shown a: %.6f h, $%.6f; want %.6f h, $%.6f", a.JobHours, a.JobUSD, wantT, wantT*10)
	}
	if d.Offers[1].Spot == nil || d.Offers[1].Spot.ExpectedUSD != shown[1].JobUSD {
		t.Errorf("decisions not parallel to the offers: %+v", d.Offers[1].Spot)
	}
	if rec.Offers[1].JobUSD != 200 || rec.Offers[1].JobHours != w {
		t.Errorf("rec's a: %.2f h, $%.2f; want its uninterrupted 20 h, $200 (JSON's job_cost_usd)", rec.Offers[1].JobHours, rec.Offers[1].JobUSD)
	}
	wantBand := [2]float64{5 / (1 - 0.01*(1.0/6+2.5)), (40 + 4*0.5) / (1 - 0.01*l)} // n = ⌈40/τ⌉ − 1 = 4
	if got := shown[1].Estimate.TimeBand; math.Abs(got[0]-wantBand[0]) > 1e-9 || math.Abs(got[1]-wantBand[1]) > 1e-9 {
		t.Errorf("shown a's time band %v; want %v", got, wantBand)
	}
	if rec.Offers[1].Estimate.TimeBand != [2]float64{5, 40} {
		t.Errorf("rec's a's estimate changed: band %v", rec.Offers[1].Estimate.TimeBand)
	}
	if !d.SpotShown(0) || !d.SpotShown(1) {
		t.Error("SpotShown false for spot offers with an estimate")
	}

	// On demand: nothing moves, nothing is shown otherwise.
	rec = &model.Recommendation{Sort: model.SortJob, Offers: []model.Offer{offer(0, 10, [2]float64{5, 40}), offer(1, 11, [2]float64{})}}
	for i := range rec.Offers {
		rec.Offers[i].Pricing = model.OnDemand
	}
	d = Decide(rec, in(model.OnDemand))
	if rec.Offers[0].Instance.Type != "a" || &d.ShownOffers(rec)[0] != &rec.Offers[0] || d.SpotShown(0) {
		t.Error("on-demand: the offers moved or are shown otherwise")
	}
}

// TestWriteRecommendDecidedSpot: the table, the "best:" line and the
// note under the table give the expected figures of ShownOffers; without
// decisions (WriteRecommend) the bare ones. A 2 h job at $10/h spot with
// δ = 0.5 h, R = 10 min and λ = 0.01/h, as TestSpotJobCostHandWorked:
// Daly's τ = 9.669 h is past W, so no checkpoint: B = 2 h, L = 1/6 + 1 =
// 1.16667 h, T = 2/(1 − 0.0116667) = 2.02361 h (shown 2.0 h), $20.24
// expected against $20.00 bare.
func TestWriteRecommendDecidedSpot(t *testing.T) {
	g := &model.GPU{Key: "g", Name: "G", MemoryGiB: 80}
	in := model.Instance{Provider: "pa", Type: "a", GPU: "g", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 30, SpotUSD: 10}}}
	cat := &model.Catalog{Instances: []model.Instance{in}}
	cat.Index()
	base, err := model.Compute(model.Workload{Settings: model.Settings{Task: model.TaskFinetune, Strategy: model.DDP},
		Model: model.Architecture{Family: model.FamilyDecoder, Layers: 4, Hidden: 256, Heads: 4, KVHeads: 4, FFN: 1024, Vocab: 1000}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := base
	e.States.Weights, e.States.OptimizerStates = 225000*model.MiB/2, 225000*model.MiB/2
	o := model.Offer{Instance: &cat.Instances[0], GPU: g, GPUs: 1, Region: "r", Pricing: model.Spot, USDPerHour: 10, MonthlyUSD: 7300, Instances: 1,
		HasJob: true, JobHours: 2, JobUSD: 20, Estimate: &e}
	rec := &model.Recommendation{Sort: model.SortJob, Offers: []model.Offer{o}}
	rate := decide.InterruptionRate{PerMonth: -math.Expm1(-7.3)}
	d := Decide(rec, DecideInput{Catalog: cat, Query: model.Query{Pricing: model.Spot},
		Rate: func(string, string, string) decide.InterruptionRate { return rate },
		Spot: decide.SpotAssumptions{CheckpointWriteBytesPerSecond: decide.DefaultCheckpointWriteBytesPerSecond, RestartHours: decide.DefaultRestartHours}})
	var b bytes.Buffer
	if err := WriteRecommendDecided(&b, &Renderer{}, rec, &base, 5, 0, "", d); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"$20.24", "expected 2.0 h and $20.24 for the job with interruptions", "spot: job time and job cost are expected with interruptions"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "$20.00") {
		t.Errorf("the bare $20.00 is shown:\n%s", out)
	}
	b.Reset()
	if err := WriteRecommend(&b, &Renderer{}, rec, &base, 5, 0); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "2.0 h and $20.00 for the job") || strings.Contains(out, "with interruptions") {
		t.Errorf("without decisions want the bare figures:\n%s", out)
	}
}
