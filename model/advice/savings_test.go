package advice

import (
	"errors"
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

func TestRankSavings(t *testing.T) {
	// A toy engine: $10/h on demand, $4/h spot, 100 h; QLoRA halves the hours.
	eval := func(s Scenario) (float64, bool) {
		if len(s.Query.GPUs) == 1 && s.Query.GPUs[0] == "none-fits" {
			return 0, false
		}
		price := map[model.Pricing]float64{"": 10, model.OnDemand: 10, model.Spot: 4, model.Reserved1y: 6.3}[s.Query.Pricing]
		if price == 0 {
			return 0, false
		}
		hours := 100.0
		if s.Workload.Task == model.TaskQLoRA {
			hours = 50
		}
		return price * hours, true
	}
	base := Scenario{Workload: model.Workload{Settings: model.Settings{Task: model.TaskLoRA}}}
	changes := []Change[Scenario]{
		{Name: "spot", Kind: "pricing", Apply: func(s Scenario) Scenario { s.Query.Pricing = model.Spot; return s }},
		{Name: "qlora", Kind: "adapters", Apply: func(s Scenario) Scenario { s.Workload.Task = model.TaskQLoRA; return s }},
		{Name: "1y", Kind: "pricing", Apply: func(s Scenario) Scenario { s.Query.Pricing = model.Reserved1y; return s }},
		{Name: "3y (no price)", Kind: "pricing", Apply: func(s Scenario) Scenario { s.Query.Pricing = model.Reserved3y; return s }},
		{Name: "nothing fits", Kind: "gpu", Apply: func(s Scenario) Scenario { s.Query.GPUs = []string{"none-fits"}; return s }},
	}
	baseUSD, got, err := RankSavings(base, eval, changes)
	if err != nil {
		t.Fatal(err)
	}
	// base 10 × 100 = 1000; spot 4 × 100 = 400 (saves 600, 60%); QLoRA 10 × 50 = 500
	// (saves 500, 50%); 1y 6.3 × 100 = 630 (saves 370, 37%); the others do not run.
	want := []Saving{
		{Change: "spot", Kind: "pricing", USD: 400, SavingUSD: 600, SavingPct: 60},
		{Change: "qlora", Kind: "adapters", USD: 500, SavingUSD: 500, SavingPct: 50},
		{Change: "1y", Kind: "pricing", USD: 630, SavingUSD: 370, SavingPct: 37},
	}
	if baseUSD != 1000 || len(got) != len(want) {
		t.Fatalf("RankSavings = %g, %+v; want 1000, %+v", baseUSD, got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Change != w.Change || g.Kind != w.Kind || !modeltest.Near(g.USD, w.USD, 1e-12) || !modeltest.Near(g.SavingUSD, w.SavingUSD, 1e-12) || !modeltest.Near(g.SavingPct, w.SavingPct, 1e-12) {
			t.Errorf("saving %d = %+v, want %+v", i, g, w)
		}
	}
	if _, _, err := RankSavings(Scenario{Query: model.Query{Pricing: model.Reserved3y}}, eval, changes); !errors.Is(err, model.ErrNoOffers) {
		t.Errorf("RankSavings with a base that does not run: error = %v, want ErrNoOffers", err)
	}
	if base.Query.Pricing != "" || base.Workload.Task != model.TaskLoRA {
		t.Errorf("RankSavings changed its base: %+v", base)
	}
}

func TestScenarioChanges(t *testing.T) {
	names := func(cs []Change[Scenario]) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	full := Scenario{Workload: model.Workload{Settings: model.Settings{Task: model.TaskFinetune, Precision: model.FP32, MicroBatch: 2, GradAccum: 4}, Model: model.Architecture{Family: model.FamilyDecoder, Layers: 2, Hidden: 8, Heads: 2, Vocab: 10}},
		Query: model.Query{Pricing: model.Spot, GPUs: []string{"a100-80gb"}, Regions: []string{"us-east-1"}}}
	got := names(ScenarioChanges(full, []string{"a100-80gb", "h100-sxm"}, []string{"us-east-1", "us-west-2"}))
	want := []string{
		"pay on-demand instead of spot", "pay reserved-1y instead of spot", "pay reserved-3y instead of spot",
		"run on h100-sxm", "rent in us-west-2", "train in amp-bf16", "8-bit AdamW states (bitsandbytes)",
		"micro-batch 1 with gradient accumulation 8 (same global batch)",
		"activation checkpointing (same batch; about 33% more compute)",
		"activation checkpointing with twice the micro-batch and half the accumulation (same global batch)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("ScenarioChanges(fp32 fine-tune on spot) =\n%q\nwant\n%q", got, want)
	}
	// Every change keeps the job (issue 31): the task, the model and the
	// global batch (2 × 4 = 8 samples per step) stay.
	for _, c := range ScenarioChanges(full, []string{"h100-sxm"}, []string{"us-west-2"}) {
		v := c.Apply(full).Workload
		v.Defaults()
		if v.Task != model.TaskFinetune || v.Model.Layers != 2 || v.GlobalBatch() != 8 {
			t.Errorf("%q changes the job: task %s, %d layers, global batch %d", c.Name, v.Task, v.Model.Layers, v.GlobalBatch())
		}
	}
	// checkpointing+batch keeps the global batch: 2 × 4 → 4 × 2.
	for _, c := range ScenarioChanges(full, nil, nil) {
		if c.Kind == "checkpointing+batch" {
			v := c.Apply(full)
			if v.Workload.MicroBatch != 4 || v.Workload.GradAccum != 2 || !*v.Workload.Checkpointing {
				t.Errorf("checkpointing+batch gave micro-batch %d × accumulation %d", v.Workload.MicroBatch, v.Workload.GradAccum)
			}
		}
	}
	serve := Scenario{Workload: model.Workload{Settings: model.Settings{Task: model.TaskInference, Precision: model.BF16}, Model: model.Architecture{Family: model.FamilyDecoder}}}
	pricing := []string{"pay spot instead of on-demand", "pay reserved-1y instead of on-demand", "pay reserved-3y instead of on-demand"}
	if got, want := names(ScenarioChanges(serve, nil, nil)), append(slices.Clone(pricing), "serve int8 weights", "serve int4 weights"); !slices.Equal(got, want) {
		t.Errorf("ScenarioChanges(bf16 serving) = %q, want %q", got, want)
	}
	// int8/int4 weights are GPTQ/AWQ's, for causal LMs only
	// (quantizableWeights): an encoder, an encoder-decoder or a decoder
	// with a classification head has no such checkpoint.
	for _, a := range []model.Architecture{{Family: model.FamilyEncoder}, {Family: model.FamilyEncoderDecoder}, {Family: model.FamilyCNN},
		{Family: model.FamilyDecoder, Head: model.HeadSequenceClassification}} {
		s := serve
		s.Workload.Model = a
		if got := names(ScenarioChanges(s, nil, nil)); !slices.Equal(got, pricing) {
			t.Errorf("ScenarioChanges(bf16 inference of a %s model, head %q) = %q, want %q", a.Family, a.Head, got, pricing)
		}
	}
}
