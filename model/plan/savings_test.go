package plan

import (
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestPhasePriceOn: a phase on an offer is priced as Phase.Cost
// prices a phase: hours × $/h, a service's months × hours a month, a
// commitment's whole term at least.
func TestPhasePriceOn(t *testing.T) {
	for _, tc := range []struct {
		name string
		ph   PhaseScenario
		o    model.Offer
		want float64
	}{
		// the engine's job time: 10 h × $2/h
		{"job", PhaseScenario{JobHours: 5}, model.Offer{USDPerHour: 2, Pricing: model.OnDemand, HasJob: true, JobHours: 10}, 20},
		// no job time from the engine: the plan's 5 h × $2/h
		{"job, plan's hours", PhaseScenario{JobHours: 5}, model.Offer{USDPerHour: 2, Pricing: model.OnDemand}, 10},
		// 6 months × 300 h × $0.8/h
		{"service", PhaseScenario{Months: 6, HoursPerMonth: 300}, model.Offer{USDPerHour: 0.8, Pricing: model.OnDemand}, 1440},
		// 6 months × 730 h × $1/h
		{"service all month", PhaseScenario{Months: 6}, model.Offer{USDPerHour: 1, Pricing: model.OnDemand}, 4380},
		// 6 × 730 × $0.5 = $2,190 < the 1-year term 12 × 730 × $0.5 = $4,380
		{"service shorter than its term", PhaseScenario{Months: 6}, model.Offer{USDPerHour: 0.5, Pricing: model.Reserved1y}, 4380},
		// 40 × 730 × $0.5 = $14,600 > the 3-year term 36 × 730 × $0.5 = $13,140
		{"service longer than its term", PhaseScenario{Months: 40}, model.Offer{USDPerHour: 0.5, Pricing: model.Reserved3y}, 14600},
	} {
		got, err := tc.ph.PriceOn(&tc.o)
		if err != nil || !modeltest.Near(got, tc.want, 1e-9) {
			t.Errorf("%s: %g, %v; want %g", tc.name, got, err, tc.want)
		}
	}
}

// TestPlanSavingsArithmetic ranks changes over a two-phase plan with a
// price list by pricing mode (no catalog): fine-tune 10 h on spot, serve
// 6 months × 730 h on-demand. $/h: on-demand 2 (fine-tune) and 1
// (serve), spot 0.8 and 0.4, reserved-1y 0.6, reserved-3y 0.45 for both.
func TestPlanSavingsArithmetic(t *testing.T) {
	price := map[model.Pricing][2]float64{model.OnDemand: {2, 1}, model.Spot: {0.8, 0.4}, model.Reserved1y: {0.6, 0.6}, model.Reserved3y: {0.45, 0.45}}
	pl := Scenario{
		{Name: "fine-tune", Scenario: advice.Scenario{Workload: model.Workload{Settings: model.Settings{Task: model.TaskQLoRA}}, Query: model.Query{Pricing: model.Spot}}},
		{Name: "serve", Scenario: advice.Scenario{Workload: model.Workload{Settings: model.Settings{Task: model.TaskInference, Precision: model.INT4}}, Query: model.Query{Pricing: model.OnDemand}}, Months: 6},
	}
	eval := func(p Scenario) (float64, bool) {
		total := 0.0
		for i := range p {
			o := model.Offer{Pricing: p[i].Query.Pricing, USDPerHour: price[p[i].Query.Pricing][i], HasJob: p[i].Months == 0, JobHours: 10}
			usd, err := p[i].PriceOn(&o)
			if err != nil {
				return 0, false
			}
			total += usd
		}
		return total, true
	}
	changes, phases := Changes(pl, nil, nil)
	base, got, err := advice.RankSavings(pl, eval, changes)
	if err != nil {
		t.Fatal(err)
	}
	// base: 10 h × $0.8 + 6 × 730 × $1 = 8 + 4,380 = $4,388
	if !modeltest.Near(base, 4388, 1e-9) {
		t.Errorf("base %g, want 4388", base)
	}
	want := []struct {
		change string
		phases []string
		saving float64
	}{
		// serve: 4,380 − 6 × 730 × 0.4 = 4,380 − 1,752
		{"pay spot instead of on-demand", []string{"serve"}, 2628},
		// serve: 6 × 730 × 0.45 = 1,971 < the 3-year term 36 × 730 × 0.45 = 11,826
		{"pay reserved-3y instead of on-demand", []string{"serve"}, 4380 - 11826},
		// serve: the 1-year term 12 × 730 × 0.6 = 5,256
		{"pay reserved-1y instead of on-demand", []string{"serve"}, 4380 - 5256},
		// fine-tune: 10 × 0.8 − 10 × 2
		{"pay on-demand instead of spot", []string{"fine-tune"}, 8 - 20},
		// fine-tune: the 1-year term 5,256 for a 10-hour job
		{"pay reserved-1y instead of spot", []string{"fine-tune"}, 8 - 5256},
	}
	for _, w := range want {
		i := slices.IndexFunc(got, func(s advice.Saving) bool { return s.Change == w.change })
		if i < 0 {
			t.Errorf("%q not ranked: %+v", w.change, got)
			continue
		}
		if !modeltest.Near(got[i].SavingUSD, w.saving, 1e-9) || !modeltest.Near(got[i].USD, 4388-w.saving, 1e-9) || !slices.Equal(phases[w.change], w.phases) {
			t.Errorf("%q: saving %g, usd %g, phases %v; want %g on %v", w.change, got[i].SavingUSD, got[i].USD, phases[w.change], w.saving, w.phases)
		}
	}
	if got[0].Change != "pay spot instead of on-demand" {
		t.Errorf("first %q, want spot for serving", got[0].Change)
	}
}

// TestPlanChangesEveryPhase: a change both phases can take is one change
// applied to both.
func TestPlanChangesEveryPhase(t *testing.T) {
	pl := Scenario{
		{Name: "a", Scenario: advice.Scenario{Query: model.Query{Pricing: model.OnDemand, GPUs: []string{"a100-80gb"}}}, JobHours: 1},
		{Name: "b", Scenario: advice.Scenario{Query: model.Query{Pricing: model.OnDemand, GPUs: []string{"l4"}}}, JobHours: 1},
	}
	changes, phases := Changes(pl, [][]string{{"a100-80gb", "l4"}, {"l4", "h100-sxm"}}, nil)
	for name, want := range map[string][]string{"pay spot instead of on-demand": {"a", "b"}, "run on l4": {"a"}, "run on h100-sxm": {"b"}, "run on a100-80gb": {"a"}} {
		if name == "run on a100-80gb" {
			want = nil // phase a is on a100-80gb already
		}
		if !slices.Equal(phases[name], want) {
			t.Errorf("%q on %v, want %v", name, phases[name], want)
		}
	}
	i := slices.IndexFunc(changes, func(c advice.Change[Scenario]) bool { return c.Name == "pay spot instead of on-demand" })
	after := changes[i].Apply(pl)
	if after[0].Query.Pricing != model.Spot || after[1].Query.Pricing != model.Spot || pl[0].Query.Pricing != model.OnDemand {
		t.Errorf("spot applied: %v %v; base left %v", after[0].Query.Pricing, after[1].Query.Pricing, pl[0].Query.Pricing)
	}
}

// TestPhasePriceWithSpot: a spot job is priced by the spot pricer (here
// 1.5 × the bare job: 10 h × $0.8 = $8 → $12), every other phase as
// PriceOn; a job that would not finish on spot has no price.
func TestPhasePriceWithSpot(t *testing.T) {
	dearer := func(o *model.Offer) (float64, bool) { return 1.5 * o.USDPerHour * o.JobHours, true }
	never := func(*model.Offer) (float64, bool) { return 0, false }
	spotJob := model.Offer{USDPerHour: 0.8, Pricing: model.Spot, HasJob: true, JobHours: 10}
	for _, tc := range []struct {
		name   string
		ph     PhaseScenario
		o      model.Offer
		spot   advice.SpotJobCost
		want   float64
		wantOK bool
	}{
		{"spot job, interruptions counted", PhaseScenario{JobHours: 5}, spotJob, dearer, 12, true},
		{"spot job, no pricer: bare rate", PhaseScenario{JobHours: 5}, spotJob, nil, 8, true},
		{"spot job that never finishes", PhaseScenario{JobHours: 5}, spotJob, never, 0, false},
		// rented by the month: 2 × 730 h × $0.8, not a job
		{"spot rented by the month", PhaseScenario{Months: 2}, spotJob, dearer, 1168, true},
		// on-demand: 10 h × $2
		{"on-demand job", PhaseScenario{JobHours: 5}, model.Offer{USDPerHour: 2, Pricing: model.OnDemand, HasJob: true, JobHours: 10}, dearer, 20, true},
		// no job time from the engine: the plan's 5 h × $0.8
		{"spot, the plan's hours", PhaseScenario{JobHours: 5}, model.Offer{USDPerHour: 0.8, Pricing: model.Spot}, dearer, 4, true},
	} {
		got, ok := tc.ph.PriceWithSpot(&tc.o, tc.spot)
		if ok != tc.wantOK || (ok && !modeltest.Near(got, tc.want, 1e-9)) {
			t.Errorf("%s: %g, %v; want %g, %v", tc.name, got, ok, tc.want, tc.wantOK)
		}
	}
}
