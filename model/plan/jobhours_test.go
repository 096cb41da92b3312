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
// phase it leaves alone (a service); a phase on two instances is
// compared (attack round 11: it was left out).
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
	for _, m := range CheckJobHours(cat, &pl, s, nil) {
		got = append(got, m.String())
	}
	// Two mid.1 (2 × g40, ddp): compared too since attack round 11, with
	// no network figure against model.Compute on both GPUs.
	w2 := w
	w2.Defaults()
	w2, _ = w2.OnGPUs(2)
	w2.Strategy = model.DDP
	g40, _ := cat.GPU("g40")
	e2, err := model.Compute(w2, g40)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		note("a thousandth of an hour", 0.001), note("just under half the fast end", tooShort), note("just over twice the slow end", tooLong),
		fmt.Sprintf("phase \"two instances\": job_hours = 0.001, but the estimate on p1 mid.1 ×2 is %.3g h (90%% range %.3g–%.3g h): the plan prices the phase on its own hours; check job_hours (gpuplan estimate --config PLAN --phase NAME times it)", e2.Hours, e2.TimeBand[0], e2.TimeBand[1]),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCheckJobHoursOnTheOffer: each job phase is estimated on its own
// offer as rented (attack round 11): on instance GPUs × instances
// whatever the answers' gpus say (said in a note, the time then
// compared on the offer's count), multi-instance offers compared too
// (the test catalog has no network figures: the nodes are timed at the
// assumed network, as estimate times them, and both sides compared), and
// a job that does not fit its offer noted and marked as a serving phase
// that misses its targets is (PhaseCost.Targets). Full texts.
func TestCheckJobHoursOnTheOffer(t *testing.T) {
	cat := modeltest.Catalog()
	g80, err := cat.GPU("g80")
	if err != nil {
		t.Fatal(err)
	}
	qlora := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 2048, DatasetTokens: 1e8}, Model: modeltest.Llama31_8B}
	timeNote := func(name string, hours float64, offer string, est, lo, hi float64) string {
		return fmt.Sprintf("phase %q: job_hours = %g, but the estimate on %s is %.3g h (90%% range %.3g–%.3g h): the plan prices the phase on its own hours; check job_hours (gpuplan estimate --config PLAN --phase NAME times it)", name, hours, offer, est, lo, hi)
	}

	// Two huge.8 (16 × g80), fsdp: the estimate on 16 GPUs with no cost
	// between nodes.
	w16 := qlora
	w16.GPUs, w16.Strategy = 16, model.FSDP
	w16.Defaults()
	e16, err := model.Compute(w16, g80)
	if err != nil || e16.Hours <= 0 {
		t.Fatalf("Compute on 16 × g80: %v, %g h", err, e16.Hours)
	}
	multi := func(name string, hours float64) Phase {
		return Phase{Name: name, Provider: "p2", Instance: "huge.8", Region: "us-east-1", Pricing: model.OnDemand, Instances: 2, USDPerHour: 160, JobHours: hours,
			Answers: Answers{"gpus": "16"}}
	}

	// mid.1 (one g40) with answers that say 64 GPUs: estimated on one.
	w64 := qlora
	w64.GPUs = 64
	w64d := w64
	w64d.Defaults()
	w1, _ := w64d.OnGPUs(1) // the global batch kept, as on any GPU count
	w1.Strategy = model.Single
	single := Phase{Name: "probe", Provider: "p1", Instance: "mid.1", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 3, JobHours: 1}
	ps := PhaseScenarioFor(&single, w1, model.Query{}, cat)
	rec, err := model.Recommend(ps.Workload, cat, ps.Query)
	var est1, lo1, hi1 float64
	for i := range rec.Offers {
		if o := &rec.Offers[i]; err == nil && o.Instance.Type == "mid.1" && o.HasJob {
			est1, lo1, hi1 = o.JobHours, o.Estimate.TimeBand[0], o.Estimate.TimeBand[1]
			break
		}
	}
	if est1 == 0 {
		t.Fatalf("no timed offer on mid.1 (err %v)", err)
	}
	asked := func(name, gpus string, hours float64) Phase {
		return Phase{Name: name, Provider: "p1", Instance: "mid.1", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 3, JobHours: hours,
			Answers: Answers{"gpus": gpus}}
	}

	// Full fine-tuning of 8B on one g16 (small.1): does not fit.
	full := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 2048, DatasetTokens: 1e8}, Model: modeltest.Llama31_8B}
	full.Defaults()
	g16, _ := cat.GPU("g16")
	eFull, err := model.Compute(full, g16)
	if err != nil {
		t.Fatal(err)
	}
	need := fmt.Sprintf("needs %.1f GiB per GPU, has %.1f GiB usable", eFull.ResidentNeed()/model.GiB, model.UsableBytes(g16)/model.GiB)
	nofit := Phase{Name: "no fit", Provider: "p1", Instance: "small.1", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 1, JobHours: 5}

	pl := Plan{Phases: []Phase{
		multi("two nodes, a thousandth of an hour", 0.001), multi("two nodes, the estimate", e16.Hours), multi("two nodes, a year", 8760),
		asked("64 asked, a thousandth", "64", 0.001), asked("64 asked, the estimate", "64", est1), asked("auto", "auto", est1),
		nofit,
	}}
	ws := []model.Workload{w16, w16, w16, w64, w64, w64, full}
	var s Scenario
	for i := range pl.Phases {
		q := model.Query{}
		if pl.Phases[i].Answers["gpus"] == "auto" {
			q.AutoGPUs = true
		}
		s = append(s, PhaseScenarioFor(&pl.Phases[i], ws[i], q, cat))
	}
	costs := make([]PhaseCost, len(pl.Phases))
	var got []string
	for _, m := range CheckJobHours(cat, &pl, s, costs) {
		got = append(got, m.String())
	}
	gpuNote := func(name string) string {
		return fmt.Sprintf("phase %q: the answers say 64 GPUs, but its offer p1 mid.1 has 1; the phase is estimated on the offer's 1 GPU (set gpus = \"1\" in its answers)", name)
	}
	want := []string{
		timeNote("two nodes, a thousandth of an hour", 0.001, "p2 huge.8 ×2", e16.Hours, e16.TimeBand[0], e16.TimeBand[1]),
		timeNote("two nodes, a year", 8760, "p2 huge.8 ×2", e16.Hours, e16.TimeBand[0], e16.TimeBand[1]),
		gpuNote("64 asked, a thousandth"), timeNote("64 asked, a thousandth", 0.001, "p1 mid.1", est1, lo1, hi1),
		gpuNote("64 asked, the estimate"),
		`phase "no fit": the job does not fit its offer p1 small.1 (` + need + `); the plan prices hours it cannot run: pick an offer that fits (gpuplan recommend --config PLAN --phase NAME)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i, c := range costs {
		wantMark := ""
		if pl.Phases[i].Name == "no fit" {
			wantMark = "does not fit its pinned offer: " + need
		}
		if c.Targets.String() != wantMark || c.Borderline {
			t.Errorf("phase %q: mark %q (borderline %v), want %q", pl.Phases[i].Name, c.Targets.String(), c.Borderline, wantMark)
		}
	}
}

// TestCheckJobHoursDearerHost: a phase pinned to a dearer host of a GPU
// the same provider and region already offer (mid.1-dear beside mid.1,
// both one G40) is checked too (walk35: aws g5.2xlarge, left out of
// Recommend's offers as a dearer host of g5.xlarge's A10G, had its
// job_hours = 0.01 priced unflagged). The range is the job's on that
// type, model.Compute on one G40.
func TestCheckJobHoursDearerHost(t *testing.T) {
	cat := *modeltest.Catalog()
	cat.Instances = append([]model.Instance(nil), cat.Instances...)
	cat.Instances = append(cat.Instances, model.Instance{Provider: "p1", Type: "mid.1-dear", GPU: "g40", GPUCount: 1, VCPUs: 24, MemoryGiB: 170,
		Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 4.5}}})
	cat.Index()
	w := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 2048, DatasetTokens: 1e7}, Model: modeltest.Llama31_8B}
	ph := Phase{Name: "tune", Provider: "p1", Instance: "mid.1-dear", Region: "us-east-1", Pricing: model.OnDemand, Instances: 1, USDPerHour: 4.5, JobHours: 0.01}
	sc := PhaseScenarioFor(&ph, w, model.Query{}, &cat)
	rec, err := model.Recommend(sc.Workload, &cat, sc.Query)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range rec.Offers {
		if o.Instance.Type == "mid.1-dear" {
			t.Fatal("the test needs mid.1-dear left out of Recommend's offers (a dearer host of G40)")
		}
	}
	w1 := w
	w1.Defaults()
	g40, _ := cat.GPU("g40")
	e, err := model.Compute(w1, g40)
	if err != nil || !e.HasTime {
		t.Fatalf("Compute: %v, timed %v", err, e.HasTime)
	}
	pl := Plan{Phases: []Phase{ph}}
	var got []string
	for _, m := range CheckJobHours(&cat, &pl, Scenario{sc}, nil) {
		got = append(got, m.String())
	}
	want := fmt.Sprintf("phase \"tune\": job_hours = 0.01, but the estimate on p1 mid.1-dear is %.3g h (90%% range %.3g–%.3g h): the plan prices the phase on its own hours; check job_hours (gpuplan estimate --config PLAN --phase NAME times it)", e.Hours, e.TimeBand[0], e.TimeBand[1])
	if len(got) != 1 || got[0] != want {
		t.Errorf("notes %q\nwant %q", got, want)
	}
}
