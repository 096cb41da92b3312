package plan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestCheckJobHours: the rule is job_hours below half the 90% range's
// fast end, or above twice its slow end, on the phase's own pinned offer;
// the note's full text. The band is the engine's (read here from
// model.Recommend on the same scenario); what is tested is where the
// rule draws the line, just inside and just outside each end, and the
// phases it leaves alone.
func TestCheckJobHours(t *testing.T) {
	cat := modeltest.Catalog()
	w := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 2048, DatasetTokens: 1e7}, Model: modeltest.Llama31_8B}
	phase := func(name string, hours float64) Phase {
		return Phase{Name: name, Provider: "p1", Instance: "mid.1", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 3, JobHours: hours}
	}
	probe := phase("probe", 1)
	sc := PhaseScenarioFor(&probe, w, model.Query{}, cat)
	rec, err := model.Recommend(sc.Workload, cat, sc.Query)
	var est float64
	var lo, hi float64
	for i := range rec.Offers {
		if o := &rec.Offers[i]; err == nil && o.Instance.Type == "mid.1" && o.HasJob {
			est, lo, hi = o.JobHours, o.Estimate.TimeBand[0], o.Estimate.TimeBand[1]
			break
		}
	}
	if est == 0 || !(lo < est && est < hi) {
		t.Fatalf("no timed offer on mid.1 (err %v): est %g, band %g–%g", err, est, lo, hi)
	}
	note := func(name string, hours float64) string {
		return fmt.Sprintf("phase %q: job_hours = %g, but the estimate on p1 mid.1 is %.3g h (90%% range %.3g–%.3g h): the plan prices the phase on its own hours; check job_hours (gpuplan estimate --config PLAN --phase NAME times it)", name, hours, est, lo, hi)
	}
	tooShort, short := lo/2*0.99, lo/2*1.01
	long, tooLong := hi*2*0.99, hi*2*1.01
	other := phase("two instances", 0.001)
	other.Instances = 2
	service := phase("service", 0)
	service.Months = 1
	pl := Plan{Phases: []Phase{
		phase("a thousandth of an hour", 0.001), phase("just under half the fast end", tooShort), phase("just over half the fast end", short),
		phase("the estimate", est), phase("just under twice the slow end", long), phase("just over twice the slow end", tooLong),
		other, service,
	}}
	var s Scenario
	for i := range pl.Phases {
		s = append(s, PhaseScenarioFor(&pl.Phases[i], w, model.Query{}, cat))
	}
	var got []string
	for _, m := range CheckJobHours(cat, &pl, s) {
		got = append(got, m.String())
	}
	want := []string{
		note("a thousandth of an hour", 0.001), note("just under half the fast end", tooShort), note("just over twice the slow end", tooLong),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
