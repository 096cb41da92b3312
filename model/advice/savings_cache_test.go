package advice

import (
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestEvalCheapestJobSharedEstimates checks that the savings eval, which
// carries estimates from one call to the next while the workload is the
// same, prices every change as a fresh eval does (a new EvalCheapestJob
// per call shares nothing). The changes mix query-only ones (pricing, one
// GPU, one region) with workload changes (8-bit AdamW, a smaller
// micro-batch with more accumulation, checkpointing), in the order
// RankSavings runs them.
func TestEvalCheapestJobSharedEstimates(t *testing.T) {
	cat := modeltest.Catalog()
	base := Scenario{Workload: model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 2, SeqLen: 512, DatasetTokens: 1e8}, Model: modeltest.Llama2_7B},
		Query: model.Query{AutoGPUs: true, AllowMultiNode: true}}
	changes := ScenarioChanges(base, []string{"g16", "g40", "g80"}, []string{"us-east-1", "eu-west-1"})
	kinds := map[string]bool{}
	for _, c := range changes {
		kinds[c.Kind] = true
	}
	if !kinds["pricing"] || !kinds["gpu"] || !kinds["region"] || !kinds["batch"] || !kinds["checkpointing"] {
		t.Fatalf("changes %v lack a kind this test needs", kinds)
	}
	shared := EvalCheapestJob(cat)
	scenarios := []Scenario{base}
	for _, c := range changes {
		scenarios = append(scenarios, c.Apply(base), base) // back and forth between workloads
	}
	priced := 0
	for i, s := range scenarios {
		got, gotOK := shared(s)
		want, wantOK := EvalCheapestJob(cat)(s)
		if got != want || gotOK != wantOK {
			t.Errorf("scenario %d (%s, %s): shared eval $%.6g (%v), fresh $%.6g (%v)", i, s.Workload.Task, s.Query.Pricing, got, gotOK, want, wantOK)
		}
		if wantOK {
			priced++
		}
	}
	if priced < len(scenarios)/2 {
		t.Errorf("only %d of %d scenarios priced: the test compares too little", priced, len(scenarios))
	}
}

// TestEvalCheapestJobShapeQuery: the shared eval keeps deployment shapes
// only while the query's part that shape reads stays the same; a call
// with another deadline, GPU count mode, node limit or precision
// fallback prices as a fresh eval does, and so does the way back.
func TestEvalCheapestJobShapeQuery(t *testing.T) {
	cat := modeltest.Catalog()
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 512, DatasetTokens: 1e8}, Model: modeltest.Llama2_7B}
	base := model.Query{AutoGPUs: true, AllowMultiNode: true}
	shared := EvalCheapestJob(cat)
	fresh := func(q model.Query) (float64, bool) { return EvalCheapestJob(cat)(Scenario{Workload: w, Query: q}) }
	free, ok := fresh(base)
	if !ok {
		t.Fatal("the base query prices nothing")
	}
	var hours float64
	if r, err := model.Recommend(w, cat, base); err == nil && len(r.Offers) > 0 {
		hours = r.Offers[0].JobHours
	}
	queries := []model.Query{
		base,
		{AutoGPUs: true, AllowMultiNode: true, DeadlineHours: hours / 3}, // the cheapest misses it
		base,
		{AutoGPUs: true}, // one node only
		{AutoGPUs: true, AllowMultiNode: true, MaxNodes: 1}, // likewise, by the limit
		{AutoGPUs: false, AllowMultiNode: true},             // the workload's own GPU count
		{AutoGPUs: true, AllowMultiNode: true, AllowPrecisionFallback: true},
		base,
	}
	changed := false
	for i, q := range queries {
		got, gotOK := shared(Scenario{Workload: w, Query: q})
		want, wantOK := fresh(q)
		if got != want || gotOK != wantOK {
			t.Errorf("query %d %+v: shared eval $%.6g (%v), fresh $%.6g (%v)", i, q, got, gotOK, want, wantOK)
		}
		changed = changed || want != free || wantOK != ok
	}
	if !changed {
		t.Error("no query priced differently from the base: the test compares too little")
	}
}

// TestCheapestWithinSame: where Recommendation.CheapestWithin reads a
// change's cheapest offer off the ranking (the base, one GPU type, one
// region), it is the offer a fresh eval ranks, over several workloads
// and base queries; and it declines (derived false) where it cannot.
func TestCheapestWithinSame(t *testing.T) {
	cat := modeltest.Catalog()
	ws := []model.Workload{
		{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 2, SeqLen: 512, DatasetTokens: 1e8}, Model: modeltest.Llama2_7B},
		{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 512}, Model: modeltest.Llama2_7B},
	}
	qs := []model.Query{
		{AutoGPUs: true, AllowMultiNode: true},
		{AutoGPUs: true, Pricing: model.Spot},
		{AutoGPUs: true, Sort: model.SortTime},
		{AutoGPUs: true, Regions: []string{"us-east-1"}},
		{AutoGPUs: true, GPUs: []string{"g40", "g80"}},
	}
	derivedN := 0
	for wi, w := range ws {
		for qi, q := range qs {
			rec, err := model.Recommend(w, cat, q)
			if err != nil || len(rec.Offers) == 0 {
				continue
			}
			var gpus, regions []string
			for _, o := range rec.Offers {
				if !slices.Contains(gpus, o.GPU.Key) {
					gpus = append(gpus, o.GPU.Key)
				}
				if !slices.Contains(regions, o.Region) {
					regions = append(regions, o.Region)
				}
			}
			wd := w
			wd.Defaults()
			base := Scenario{Workload: wd, Query: q}
			scenarios := []Scenario{base}
			for _, c := range ScenarioChanges(base, append(gpus, "g16"), append(regions, "eu-west-1")) {
				scenarios = append(scenarios, c.Apply(base))
			}
			for si, s := range scenarios {
				o, ok, derived := rec.CheapestWithin(cat, s.Workload, q, s.Query)
				if !derived {
					continue
				}
				derivedN++
				want, wantOK := model.NewCheapestFinder(cat).Offer(s.Workload, s.Query)
				if ok != wantOK || ok && (o.Instance != want.Instance || o.Region != want.Region || o.USDPerHour != want.USDPerHour || o.JobUSD != want.JobUSD || o.GPUs != want.GPUs) {
					t.Errorf("workload %d, query %d, scenario %d: derived %v (%v), ranked %v (%v)", wi, qi, si, o, ok, want, wantOK)
				}
			}
		}
	}
	t.Logf("%d derived", derivedN)
	if derivedN < 10 {
		t.Errorf("only %d scenarios derived: the test compares too little", derivedN)
	}
}

// TestCheapestFinderIsFirstOffer: the finder's offer, whose scan skips
// prices that cannot beat the least offer kept (offerScan.beyond), is the
// full ranking's first, for every change of several workloads, on the
// price, monthly and job keys.
func TestCheapestFinderIsFirstOffer(t *testing.T) {
	cat := modeltest.Catalog()
	ws := []model.Workload{
		{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 2, SeqLen: 512, DatasetTokens: 1e8}, Model: modeltest.Llama2_7B},
		{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 4, SeqLen: 2048}, Model: modeltest.Llama2_7B},
		{Settings: model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 1024}, Model: modeltest.Llama2_7B},
	}
	compared := 0
	for wi, w := range ws {
		for _, q := range []model.Query{{AutoGPUs: true, AllowMultiNode: true}, {AutoGPUs: true, HoursPerMonth: 200}, {AutoGPUs: true, Pricing: model.Spot}} {
			w.Defaults()
			base := Scenario{Workload: w, Query: q}
			scenarios := []Scenario{base}
			for _, c := range ScenarioChanges(base, []string{"g16", "g40", "g80"}, []string{"us-east-1", "eu-west-1"}) {
				scenarios = append(scenarios, c.Apply(base))
			}
			f := model.NewCheapestFinder(cat)
			for si, s := range scenarios {
				got, ok := f.Offer(s.Workload, s.Query)
				fq := s.Query
				fq.Sort = ""
				rec, err := model.Recommend(s.Workload, cat, fq)
				wantOK := err == nil && len(rec.Offers) > 0
				if ok != wantOK {
					t.Errorf("workload %d, scenario %d: finder found %v, ranking %v", wi, si, ok, wantOK)
					continue
				}
				if !ok {
					continue
				}
				compared++
				want := &rec.Offers[0]
				if got.Instance != want.Instance || got.Region != want.Region || got.USDPerHour != want.USDPerHour || got.GPUs != want.GPUs || got.JobUSD != want.JobUSD {
					t.Errorf("workload %d, scenario %d: finder %s %s $%g, ranking %s %s $%g", wi, si, got.Instance.Type, got.Region, got.USDPerHour, want.Instance.Type, want.Region, want.USDPerHour)
				}
			}
		}
	}
	if compared < 20 {
		t.Errorf("only %d offers compared", compared)
	}
}
