package cli

import (
	"strings"
	"testing"
)

// TestPlanServingNoSpotSaving (issue 31 round 4, item 9): the example
// plan's six-month production service was told "pay spot instead of
// on-demand (serve) saves 58%": spot capacity is reclaimed at short
// notice, so it is no saving for a service that must stay up. Training
// phases keep the spot change. Failing before: the spot line for serve.
func TestPlanServingNoSpotSaving(t *testing.T) {
	code, out, errOut := runCLI(t, "plan", "../../docs/examples/plan.toml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for l := range strings.SplitSeq(out, "\n") {
		if strings.Contains(l, "pay spot instead of") && strings.Contains(l, "serve") {
			t.Errorf("spot offered as a saving for the serving phase: %s", l)
		}
	}
}
