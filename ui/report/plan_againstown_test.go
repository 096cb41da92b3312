package report

import (
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/plan"
)

// TestPlanSavingsAgainstPlanOwn: when the plan's phases re-priced cost
// more than the plan's own total (walk 50: a serving phase borderline on
// one L4 at $1,764.50 re-priced on 4 L4s at $10,079.49), a saving is
// measured against the plan's own total as printed: "run on l40s saves
// $6,002 (60%)" was $2,313 more than the plan as written, and "serve int4
// weights saves $8,315" left the plan's own total as it was; neither is
// a saving, and only what leaves the bill below the plan's own is listed,
// by what it saves on it. Figures are the walk's `gpuplan plan --json`
// (usd per change).
func TestPlanSavingsAgainstPlanOwn(t *testing.T) {
	savings := []plan.Saving{
		{Saving: advice.Saving{Change: "serve int4 weights", Kind: "precision", USD: 1764.5, SavingUSD: 8314.99, SavingPct: 82.5}, Phases: []string{"serve"}},
		{Saving: advice.Saving{Change: "run on l40s", Kind: "gpu", USD: 4077.58, SavingUSD: 6001.91, SavingPct: 59.5}, Phases: []string{"serve"}},
		{Saving: advice.Saving{Change: "run on xx", Kind: "gpu", USD: 1500, SavingUSD: 8579.49, SavingPct: 85.1}, Phases: []string{"serve"}},
	}
	r := &Renderer{Profile: colorprofile.NoTTY}
	for _, tc := range []struct {
		name          string
		planUSD, base float64
		want, not     []string
	}{
		{"re-priced above the plan", 1764.5043, 10079.49,
			[]string{"run on xx (serve)", "saves $265 (15%); total $1,500"}, []string{"run on l40s", "serve int4 weights", "$6,002", "$8,315"}},
		{"same total", 10079.49, 10079.49, nil, []string{"plan's own", "; total"}},
		{"re-priced below the plan", 12000, 10079.49, nil, []string{"; total"}},
	} {
		var b strings.Builder
		if err := WritePlanSavings(&b, r, tc.planUSD, tc.base, nil, nil, savings, nil); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: want %q in:\n%s", tc.name, w, out)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(out, n) {
				t.Errorf("%s: %q not wanted in:\n%s", tc.name, n, out)
			}
		}
	}
}
