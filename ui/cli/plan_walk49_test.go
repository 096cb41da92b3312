package cli

import (
	"strings"
	"testing"
)

// TestPlanRefusesWhatEstimateRefuses: a serving phase whose prompt plus
// output tokens pass its context is refused by estimate --phase, and plan
// priced it (walk 49e: $9,461 for a server vLLM refuses to start). Both
// now exit 2 with the same reason.
func TestPlanRefusesWhatEstimateRefuses(t *testing.T) {
	const file, reason = "testdata/plan-serve-pair.toml", "prompt_tokens + output_tokens (5500) exceed max_model_len 2048"
	code, _, errOut := runCLI(t, "estimate", "--config", file, "--phase", "serve")
	if code != 2 || !strings.Contains(errOut, reason) {
		t.Errorf("estimate --phase: exit %d, want 2 and %q in %q", code, reason, errOut)
	}
	code, out, errOut := runCLI(t, "plan", file)
	if code != 2 || !strings.Contains(errOut, `phase "serve": serving: `+reason) || strings.Contains(out, "Total") {
		t.Errorf("plan: exit %d, want 2 and %q in:\n%s%s", code, reason, out, errOut)
	}
}
