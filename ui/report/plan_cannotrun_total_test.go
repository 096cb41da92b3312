package report

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/plan"
)

// walkPlan1 is a new user's plan1.toml: a LoRA job that runs, then Qwen3
// 32B in bf16 pinned on one L40S, which cannot run there (✗).
func walkPlan1() (*plan.Plan, []plan.PhaseCost, float64) {
	p := &plan.Plan{Name: "qwen3 ft then serve", Phases: []plan.Phase{
		{Name: "lora", Provider: "lambda", Instance: "gpu_1x_h100_pcie", Pricing: "on-demand", Instances: 1, USDPerHour: 2.49, JobHours: 5},
		{Name: "serve", Provider: "aws", Instance: "g6e.xlarge", Region: "us-east-1", Pricing: "on-demand", Instances: 1, USDPerHour: 1.861, Months: 3},
	}}
	costs := []plan.PhaseCost{{Hours: 5, USD: 12.45}, {Hours: 2190, USD: 4075.59, Refused: true}}
	return p, costs, 12.45 + 4075.59
}

// TestPlanTotalLeavesOutCannotRun: a phase marked ✗, which cannot run on
// its pinned offer, is left out of the Total the text prints, and the
// line says so (walk: "Total $4,088" priced a plan whose serving phase
// cannot run); --json keeps total_usd as written and adds
// runnable_total_usd.
func TestPlanTotalLeavesOutCannotRun(t *testing.T) {
	p, costs, total := walkPlan1()
	var b strings.Builder
	if err := WritePlan(&b, &Renderer{Profile: colorprofile.NoTTY}, p, costs, total); err != nil {
		t.Fatal(err)
	}
	want := `Total $12.45 for the phases that can run; phase "serve" (✗, $4,076 as written) is left out: it cannot run on its pinned offer`
	if out := b.String(); !strings.Contains(out, want) {
		t.Errorf("want %q in:\n%s", want, out)
	}
	j := NewPlanJSON(p, costs, total)
	if j.TotalUSD != 4088.04 || j.RunnableTotalUSD == nil || *j.RunnableTotalUSD != 12.45 {
		t.Errorf("total_usd %v, runnable_total_usd %v: want 4088.04 and 12.45", j.TotalUSD, j.RunnableTotalUSD)
	}
	costs[1].Refused = false
	if j := NewPlanJSON(p, costs, total); j.RunnableTotalUSD != nil {
		t.Errorf("runnable_total_usd %v when every phase runs: want none", *j.RunnableTotalUSD)
	}
}

// TestPlanSavingsWhenPhaseCannotRun: with a phase that cannot run on its
// pinned offer, the plan's own total is no baseline: each saving is said
// against the re-priced total, where that phase runs, and no line reads
// "$12,219 more than the plan's own" (walk: every saving did). Figures
// are the walk's.
func TestPlanSavingsWhenPhaseCannotRun(t *testing.T) {
	savings := []plan.Saving{
		{Saving: advice.Saving{Change: "serve int4 weights", Kind: "precision", USD: 16307, SavingUSD: 115672, SavingPct: 87.6}, Phases: []string{"serve"}},
		{Saving: advice.Saving{Change: "run on a100-40gb", Kind: "gpu", USD: 48092, SavingUSD: 83887, SavingPct: 63.6}, Phases: []string{"serve"}},
	}
	var b strings.Builder
	if err := WritePlanSavings(&b, &Renderer{Profile: colorprofile.NoTTY}, 4088.04, 131979, []string{"serve"}, nil, savings, nil); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, w := range []string{
		`the plan's phases re-priced that way now $131,979, phase "serve" on an offer that runs it; the plan's own $4,088 is not compared: it prices what cannot run`,
		"saves $115,672 (88%); total $16,307\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("want %q in:\n%s", w, out)
		}
	}
	if strings.Contains(out, "more than the plan's own") {
		t.Errorf("a saving is compared with a plan that cannot run:\n%s", out)
	}
}
