package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
)

// TestPanelAdviceVerdict: the panel's fit advice marks each change as
// estimate's does (report.AdviceMark): "~" for a change that fits at the
// estimate only (its 90% band reaches past the GPU: borderline), where
// the panel said "✓" (a new user's trial: ZeRO-3 advised ✓, then
// estimate's "~ borderline" with the same flags); "✓" across the band,
// "✗" when it does not fit.
func TestPanelAdviceVerdict(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), tab, up, up, enter, runes("/"))
	m = drive(t, m, append(typed("llama 3.1 70b"), enter)...) // full fine-tune of 70B on one GPU: no offer, fit advice computed
	r := m.res
	if r == nil || len(r.advice) == 0 {
		t.Fatalf("no fit advice to mark: %+v", r)
	}
	for _, tc := range []struct {
		fits    bool
		verdict model.FitVerdict
		mark    string
	}{
		{true, model.VerdictFits, "✓"},
		{true, model.VerdictBorderline, "~"},
		{false, model.VerdictNoFit, "✗"},
	} {
		a := r.advice[0]
		a.Fits, a.Verdict = tc.fits, tc.verdict
		c := *r
		c.advice = []advice.Advice{a}
		c.hints = nil // the advice is what the panel shows when recommend's hints price nothing (here they find 8 A100 80GB)
		var got string
		for _, l := range m.panel.noFitLines(&c, 110) {
			if l = ansi.Strip(l); got == "" && strings.Contains(l, " shard with ") && !strings.HasPrefix(l, " ") {
				got = l // the advice line's first (a fitting one wraps, its figure on its last)
			}
		}
		if !strings.HasPrefix(got, tc.mark+" shard with ") {
			t.Errorf("%s: the advice line %q; want it marked %q", tc.verdict, got, tc.mark)
		}
	}
}
