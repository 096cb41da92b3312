package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"golang.org/x/text/language"
)

// TestDecideSpotLate: under --pricing spot with a deadline, a spot offer
// is judged late on its time with interruptions (decide.SpotLateChance),
// as the table shows it, not on its uninterrupted time; the shown offer
// and the recommendation's own (JSON's deadline_miss_chance) carry the
// same chance, and the ranking puts it after the offers that meet the
// deadline. Worked by hand as TestDecideSpotShownRanksByExpected: a 20 h
// job (W) with a 0.5 h checkpoint write (δ) and a 10 min restart, long
// enough for Daly's interval (a 2 h job takes no checkpoint, and at
// λ = 0.01/h its μ = 0.02 interruptions cannot make it late);
// uninterrupted time ranges ×0.75–×1.333 (the fallback calibration band,
// uniform in log), so [15 h, 26.667 h], inside a 29 h deadline:
//
//   - "a" at $10/h spot, λ = 0.01/h (M = 100 h): Daly's τ = √(2·0.5·100)
//     ·(1 + √0.0025/3 + 0.0025/9) − 0.5 = 9.669444 h < W; 20/9.669444 =
//     2.068, so n = ⌈2.068⌉ − 1 = 2 writes, B = 20 + 2·0.5 = 21 h,
//     L = 1/6 + (9.669444 + 0.5)/2 = 5.251389 h, T = 21/(1 − 0.0525139)
//     = 22.163913 h, μ = λT = 0.2216391, $221.64 expected. Late: P(N = k)
//     = e^−μ·μᵏ/k! = 0.801204, 0.177578, 0.019679, 0.00145389, 8.056e-5,
//     3.571e-6; P(W > 29 − kL − 2·0.5) at k = 0: 28 h, past the slow end
//     (0.05, at most 5%); k = 1: 22.749 h, 0.95 − 0.9·ln(22.749/15)
//     /ln(16/9) = 0.298572; k = 2: 17.497 h, 0.709122; k = 3, 4, 5:
//     12.25, 6.99, 1.74 h, below the fast end (0.95); k ≥ 6: 6L + 1 ≥ 29 h
//     (1, 1.362e-7). The sum is 0.040060 + 0.053020 + 0.013955 +
//     0.001381 + 0.000077 + 0.000003 + 0.0000001 = 0.108496, about 10%;
//     without the k = 0 term (at most 5%) 0.068436, above 5%: late. Its
//     time range shown [16.359 h, 29.200 h] (T at W = 15 h and 26.667 h:
//     n = 1 and 2, B = 15.5 and 27.666667 h over 0.9474861) straddles 29 h;
//   - "b" at $14/h spot, λ = 0: $280, its range [15, 26.667] meets 29 h.
//
// Without the deadline a ($221.64) ranks before b ($280); with it, b first.
func TestDecideSpotLate(t *testing.T) {
	const w = 20.0
	cat := &model.Catalog{Instances: []model.Instance{
		{Provider: "pa", Type: "a", GPU: "g", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 30, SpotUSD: 10}}},
		{Provider: "pb", Type: "b", GPU: "g", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 30, SpotUSD: 14}}},
	}}
	cat.Index()
	g := &model.GPU{Key: "g", Name: "G", MemoryGiB: 80}
	offer := func(i int, usd float64) model.Offer {
		e := &model.Estimate{Workload: model.Workload{Settings: model.Settings{Task: model.TaskFinetune, Strategy: model.DDP}}, HasTime: true, Hours: w}
		e.States.Weights, e.States.OptimizerStates = 225000*model.MiB/2, 225000*model.MiB/2
		e.TimeBand = [2]float64{0.75 * w, w / 0.75}
		return model.Offer{Instance: &cat.Instances[i], GPU: g, GPUs: 1, Region: "r", Pricing: model.Spot, USDPerHour: usd, Instances: 1,
			HasJob: true, JobHours: w, JobUSD: w * usd, Estimate: e}
	}
	rates := map[string]decide.InterruptionRate{"pa": {PerMonth: -math.Expm1(-7.3)}, "pb": {}}
	in := func(deadline float64) DecideInput {
		return DecideInput{Catalog: cat, Query: model.Query{Pricing: model.Spot, DeadlineHours: deadline},
			Rate: func(provider, _, _ string) decide.InterruptionRate { return rates[provider] },
			Spot: decide.SpotAssumptions{CheckpointWriteBytesPerSecond: decide.DefaultCheckpointWriteBytesPerSecond, RestartHours: decide.DefaultRestartHours}}
	}
	lam, tau := 0.01, 10*(1+0.05/3+0.0025/9)-0.5
	writes, l := 2*0.5, 1.0/6+(tau+0.5)/2 // n·δ: n = ⌈20/9.669444⌉ − 1 = 2
	mu := lam * (w + writes) / (1 - lam*l)
	over := func(h float64) float64 { // P(W > h): uniform in log over [15 h, 26.667 h], 0.05–0.95 outside
		return min(max(0.95-0.9*math.Log(h/15)/math.Log(16.0/9), 0.05), 0.95)
	}
	wantChance, pk, cdf := 0.0, math.Exp(-mu), 0.0
	for k := 0; float64(k)*l+writes < 29; k++ {
		wantChance, cdf = wantChance+pk*over(29-float64(k)*l-writes), cdf+pk
		pk *= mu / float64(k+1)
	}
	wantChance += 1 - cdf

	for _, c := range []struct {
		name     string
		deadline float64
		first    string
		late     float64 // a's chance
	}{
		{"no deadline: a first", 0, "a", 0},
		{"29 h: a late with interruptions", 29, "b", wantChance},
		// 35 h: past a's slow end with interruptions, T(26.667 h) = 29.2 h; one interruption leaves
		// 35 − 5.251 − 1 = 28.749 h, past the slow end too (at most 5%); two (23.497 h, 0.247925)
		// and three (18.246 h, 0.643589) are inside at 0.019679 and 0.00145389: 0.004879 + 0.000936,
		// with four to six below the fast end (0.95 × 8.43e-5) 0.005895 past the 5% tail: not late.
		{"35 h: not late", 35, "a", 0},
	} {
		bare := []model.Offer{offer(0, 10), offer(1, 14)}
		for i := range bare {
			bare[i].DeadlineHours = c.deadline // the matcher: uninterrupted, both meet it
		}
		rec := &model.Recommendation{Sort: model.SortJob, Offers: bare}
		d := Decide(rec, in(c.deadline))
		shown := d.ShownOffers(rec)
		if got := rec.Offers[0].Instance.Type; got != c.first {
			t.Errorf("%s: first %s, want %s", c.name, got, c.first)
		}
		for i := range rec.Offers {
			want := 0.0
			if rec.Offers[i].Instance.Type == "a" {
				want = c.late
			}
			if math.Abs(shown[i].LateChance-want) > 1e-9 || math.Abs(rec.Offers[i].LateChance-want) > 1e-9 {
				t.Errorf("%s: %s late chance shown %.9g, rec %.9g; want %.9g", c.name, rec.Offers[i].Instance.Type, shown[i].LateChance, rec.Offers[i].LateChance, want)
			}
		}
		if bare[0].LateChance != 0 {
			t.Errorf("%s: Decide wrote the caller's offers", c.name)
		}
		if c.late == 0 {
			continue
		}
		// The table marks a's job time, its warning gives the shown range; JSON says the same.
		var b bytes.Buffer
		if err := WriteRecommendDecided(&b, &Renderer{}, rec, rec.Offers[0].Estimate, 5, 0, "", d); err != nil {
			t.Fatal(err)
		}
		const warn = "about 10% chance the job takes longer than 29 h (the 90% range of its time is 16.4–29.2 h)"
		if out := b.String(); !strings.Contains(out, "~22.2 h") || !strings.Contains(out, "~ job time (1 row): about 10% chance of missing the 29 h deadline") {
			t.Errorf("%s: the table does not mark a late:\n%s", c.name, out)
		}
		j := NewRecommendJSON(rec, nil, 0)
		j.AddDecisions(rec, d)
		ja := j.Offers[1]
		if ja.DeadlineMissChance == nil || *ja.DeadlineMissChance != 0.1 || !strings.Contains(strings.Join(ja.Warnings, "\n"), warn) {
			t.Errorf("%s: JSON a: deadline_miss_chance %v, warnings %q; want 0.1 and %q", c.name, ja.DeadlineMissChance, ja.Warnings, warn)
		}
		if jb := j.Offers[0]; jb.DeadlineMissChance != nil {
			t.Errorf("%s: JSON b late: %v", c.name, *jb.DeadlineMissChance)
		}
	}
}

// TestAnswersPreferOnTime: --finish-by and --max-job-cost answer with an
// offer that meets the deadline at the slow end of its time range when
// one meets the limit, as the ranking puts late offers after those, and
// an answer that can only name a late offer says its chance of missing
// the deadline (under spot, on the time with interruptions: spotLate).
// Offers: "late" 7 h for $3 (about 30% chance of missing 10 h), "ontime"
// 5 h for $5.
func TestAnswersPreferOnTime(t *testing.T) {
	ins := []model.Instance{{Provider: "p", Type: "late"}, {Provider: "p", Type: "ontime"}}
	rec := &model.Recommendation{Sort: model.SortJob, Offers: []model.Offer{
		{Instance: &ins[1], Region: "r", Pricing: model.Spot, HasJob: true, JobHours: 5, JobUSD: 5},
		{Instance: &ins[0], Region: "r", Pricing: model.Spot, HasJob: true, JobHours: 7, JobUSD: 3, LateChance: 0.3, DeadlineHours: 10},
	}}
	pts := decide.OfferPoints(rec.Offers)
	for _, c := range []struct {
		name string
		a    Answer
		want string
	}{
		// Both finish within 8 h; the cheapest is late: the on-time one answers.
		{"finish-by 8 h", AnswerFinishWithin(rec, nil, pts, 8, "8h"), "cheapest finishing within 8.0 h: p ontime in r (spot): 5.0 h, $5.00"},
		// Only the late one finishes within $4: named with its chance.
		{"max-job-cost $4", AnswerMaxJobCost(rec, nil, pts, 4), "fastest within $4.00: p late in r (spot): 7.0 h, $3.00 (may miss the 10 h deadline: about 30% chance)"},
		{"max-job-cost $6", AnswerMaxJobCost(rec, nil, pts, 6), "fastest within $6.00: p ontime in r (spot): 5.0 h, $5.00"},
	} {
		if c.a.Text != c.want {
			t.Errorf("%s: %q\nwant %q", c.name, c.a.Text, c.want)
		}
	}
}

// TestAnswerLateZh: the late clause of an answer reads in Chinese.
func TestAnswerLateZh(t *testing.T) {
	ins := model.Instance{Provider: "p", Type: "late"}
	rec := &model.Recommendation{Offers: []model.Offer{{Instance: &ins, Region: "r", Pricing: model.Spot, HasJob: true, JobHours: 7, JobUSD: 3, LateChance: 0.3, DeadlineHours: 10}}}
	a := AnswerMaxJobCost(rec, nil, decide.OfferPoints(rec.Offers), 4)
	if got := AnswerText(i18n.New(language.SimplifiedChinese), &a); !strings.Contains(got, "可能错过 10 小时的截止时间：约 30% 的概率") {
		t.Errorf("zh-CN: %q", got)
	}
}

// TestSpotViewIsShown: SpotView, which the matcher weighs a region's
// hosts on (model.Query.SpotView), gives each spot offer the figures
// Decide shows it with (TestDecideSpotLate's "a": $221.64 expected, the
// 29 h deadline missed about 10% of the time; "b", never interrupted, its
// own $280), an offer whose job would not finish on spot an infinite job
// (Decide ranks it last), and nothing off spot pricing or without rates.
func TestSpotViewIsShown(t *testing.T) {
	cat := &model.Catalog{Instances: []model.Instance{
		{Provider: "pa", Type: "a", GPU: "g", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 30, SpotUSD: 10}}},
		{Provider: "pb", Type: "b", GPU: "g", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 30, SpotUSD: 14}}},
		{Provider: "pc", Type: "c", GPU: "g", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 30, SpotUSD: 5}}},
	}}
	cat.Index()
	g := &model.GPU{Key: "g", Name: "G", MemoryGiB: 80}
	offer := func(i int, usd float64) model.Offer {
		e := &model.Estimate{Workload: model.Workload{Settings: model.Settings{Task: model.TaskFinetune, Strategy: model.DDP}}, HasTime: true, Hours: 20}
		e.States.Weights, e.States.OptimizerStates = 225000*model.MiB/2, 225000*model.MiB/2
		e.TimeBand = [2]float64{15, 20 / 0.75}
		return model.Offer{Instance: &cat.Instances[i], GPU: g, GPUs: 1, Region: "r", Pricing: model.Spot, USDPerHour: usd, Instances: 1,
			HasJob: true, JobHours: 20, JobUSD: 20 * usd, Estimate: e, DeadlineHours: 29}
	}
	// "c": f = 1 − e^−730 (one interruption an hour) is 1 in float64: every instance reclaimed, never finishes.
	rates := map[string]decide.InterruptionRate{"pa": {PerMonth: -math.Expm1(-7.3)}, "pb": {}, "pc": {PerMonth: -math.Expm1(-730)}}
	in := DecideInput{Catalog: cat, Query: model.Query{Pricing: model.Spot, DeadlineHours: 29},
		Rate: func(provider, _, _ string) decide.InterruptionRate { return rates[provider] },
		Spot: decide.SpotAssumptions{CheckpointWriteBytesPerSecond: decide.DefaultCheckpointWriteBytesPerSecond, RestartHours: decide.DefaultRestartHours}}
	view := SpotView(in)
	rec := &model.Recommendation{Sort: model.SortJob, Offers: []model.Offer{offer(0, 10), offer(1, 14)}}
	d := Decide(rec, in)
	shown := d.ShownOffers(rec)
	for i := range rec.Offers {
		v, ok := view(&rec.Offers[i])
		if !ok || v.JobUSD != shown[i].JobUSD || v.JobHours != shown[i].JobHours || v.LateChance != shown[i].LateChance ||
			v.Estimate.TimeBand != shown[i].Estimate.TimeBand {
			t.Errorf("%s: view %v %.6g h $%.6g late %.3g band %v; shown %.6g h $%.6g late %.3g band %v", rec.Offers[i].Instance.Type, ok,
				v.JobHours, v.JobUSD, v.LateChance, v.Estimate.TimeBand, shown[i].JobHours, shown[i].JobUSD, shown[i].LateChance, shown[i].Estimate.TimeBand)
		}
		if a := rec.Offers[i].Instance.Type == "a"; a != (v.LateChance > 0.05) {
			t.Errorf("%s: view late chance %.3g; want a late (about 10%%), b not", rec.Offers[i].Instance.Type, v.LateChance)
		}
	}
	c := offer(2, 5)
	if v, ok := view(&c); !ok || !math.IsInf(v.JobUSD, 1) || !math.IsInf(v.JobHours, 1) {
		t.Errorf("never finishing: view %v $%g %g h; want +Inf", ok, v.JobUSD, v.JobHours)
	}
	in.Query.Pricing = model.OnDemand
	if SpotView(in) != nil {
		t.Error("on demand: want no view")
	}
	in.Query.Pricing, in.Rate = model.Spot, nil
	if SpotView(in) != nil {
		t.Error("no rates: want no view")
	}
}
