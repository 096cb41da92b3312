package cli

import (
	"regexp"
	"strings"
	"testing"
)

// Under --pricing spot an offer whose spot job would not finish
// (interruptions on 32 nodes at the >20%/month assumed for verda and
// primeintellect every ~100 h, each costing a week's restart) is ranked
// after the offers that finish, with one line saying so: it was printed
// as best, unmarked, above its own Spot line "spot job would not finish"
// (attack r29). Here verda's 8B200.240V was best before.
func TestRecommendSpotNeverFinishesRankedLast(t *testing.T) {
	code, out, errOut := runWithSpot(t, "recommend", "--model", "llama-3.1-8b", "--task", "lora", "--dataset-tokens", "10B",
		"--gpus", "256", "--allow-multi-node", "--pricing", "spot", "--restart-minutes", "10080", "--limit", "3", "--no-savings")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	best := regexp.MustCompile(`(?m)^best: (\S+ \S+ in \S+):`).FindStringSubmatch(out)
	if best == nil {
		t.Fatalf("no best line:\n%s", out)
	}
	spot := regexp.MustCompile(`(?m)^  Spot ` + regexp.QuoteMeta(best[1]) + `: (.*)$`).FindStringSubmatch(out)
	if spot == nil || strings.Contains(spot[1], "would not finish") {
		t.Errorf("best %s, its Spot line %q; want an offer whose spot job finishes", best[1], spot)
	}
	if !strings.Contains(errOut, "offers ranked after the rest: their spot job would not finish") {
		t.Errorf("stderr does not say offers were ranked after:\n%s", errOut)
	}
}
