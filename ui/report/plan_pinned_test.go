package report

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/plan"
)

// TestPlanSavingsSaysPinned: a plan phase pins its provider, region and
// GPU type, so plan prices a change of the workload on that offer, where
// recommend prices it on the whole catalog's best: for LoRA on Llama 3.1
// 70B, recommend said checkpointing saves $41.76 and plan that it costs
// $36.16 more, under a header claiming "best offers". The header and the
// workload change's line now say the offer is pinned; a change of the
// offer itself (GPU, region, pricing) does not. The line names what is
// kept, the provider, region and GPU type, not "the pinned offer": the
// change is priced on the best instance type of that GPU there, which
// need not be the phase's (walk36). The header names the
// plan's own total beside the re-priced one when they print differently
// (the example printed Total $4,736, then "now $4,737" with no word on
// why).
func TestPlanSavingsSaysPinned(t *testing.T) {
	savings := []plan.Saving{
		{Saving: advice.Saving{Change: "activation checkpointing", Kind: "checkpointing", SavingUSD: -36.16, SavingPct: -50}, Phases: []string{"lora"}},
		{Saving: advice.Saving{Change: "run on b200", Kind: "gpu", SavingUSD: -40, SavingPct: -55}, Phases: []string{"lora"}},
	}
	r := &Renderer{Profile: colorprofile.NoTTY}
	for _, tc := range []struct {
		name          string
		planUSD, base float64
		against       bool
	}{
		{"same total", 72.4, 72.401, false},
		{"moved since written", 4736.2, 4736.87, true},
	} {
		var b strings.Builder
		if err := WritePlanSavings(&b, r, tc.planUSD, tc.base, nil, nil, savings, nil); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if !strings.Contains(out, "pinned provider, region and GPU type") || strings.Contains(out, "best offers") {
			t.Errorf("%s: header does not say the offers are pinned:\n%s", tc.name, out)
		}
		if got := strings.Contains(out, "against the plan's own "+USD(tc.planUSD)); got != tc.against {
			t.Errorf("%s: names the plan's own total %v, want %v:\n%s", tc.name, got, tc.against, out)
		}
		for _, l := range strings.Split(out, "\n") {
			switch {
			case strings.Contains(l, "activation checkpointing") && !strings.Contains(l, "(lora, same provider, region, GPU)"):
				t.Errorf("%s: the workload change does not say it stays on the pinned provider, region and GPU type: %q", tc.name, l)
			case strings.Contains(l, "pinned offer"):
				// walk36: "serve int4 weights (on the pinned offer)" was
				// priced on another instance type of the GPU than the
				// one the phase pins (the serving ranking's cheapest).
				t.Errorf("%s: a change is priced on the phase's provider, region and GPU type, not its instance type: %q", tc.name, l)
			case strings.Contains(l, "run on b200") && strings.Contains(l, "pinned"):
				t.Errorf("%s: a change of GPU type is not on the pinned offer: %q", tc.name, l)
			}
		}
	}
}
