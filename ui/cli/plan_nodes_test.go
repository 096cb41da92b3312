package cli

import (
	"strings"
	"testing"
)

// TestPlanSavingsMultiNode: a valid plan whose phase rents 4 instances
// for 32 GPUs is priced for its savings on 4-node offers (the search
// allowed one node and found nothing, so the savings said "the plan as it
// stands has no cost to compare with"); spot, the cheapest change, leads.
func TestPlanSavingsMultiNode(t *testing.T) {
	code, out, errs := runCLI(t, "plan", "testdata/plan-four-nodes.toml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "no cost to compare") || !strings.Contains(out, "pay spot instead of on-demand (fine-tune)") {
		t.Errorf("savings of a 4-node plan:\n%s\n%s", out, errs)
	}
}
