package cli

import (
	"regexp"
	"strings"
	"testing"
)

// TestWouldFitSpot (a new user's walk): a 70B fine-tune with a $200 job
// budget on aws, gcp and azure ranked no offer on demand, and "What
// would make it fit" offered only "without --budget-job", while
// --pricing spot ranks offers under the budget. Now the change to spot
// is one of the hints, its best offer and expected job cost with
// interruptions the ones --pricing spot puts first, with the spot
// caveat under it; a search already on spot, or without a price limit
// that removed offers, gets no such hint.
func TestWouldFitSpot(t *testing.T) {
	job := []string{"recommend", "--model", "llama-3.1-70b", "--task", "finetune", "--seq-len", "4096", "--batch-size", "1", "--dataset-tokens", "200M",
		"--allow-multi-node", "--checkpointing", "--providers", "aws,gcp,azure", "--budget-job", "200"}
	code, out, errs := runWithSpot(t, job...)
	hint := regexp.MustCompile(`→ pay spot instead of on-demand \(--pricing spot\): \d+ offers, best (\S+ \S+) .*, expected .* and (\$[\d.,]+) for the job with interruptions\n    ! spot: can be reclaimed at short notice`).FindStringSubmatch(out)
	if code != 0 || !strings.Contains(out, "No offer runs") || hint == nil {
		t.Fatalf("exit %d, want no offer and the spot hint with its caveat:\n%s%s", code, out, errs)
	}
	code, spot, errs := runWithSpot(t, append(job, "--pricing", "spot")...)
	best := regexp.MustCompile(`best: (\S+ \S+) in .*expected .* and (\$[\d.,]+) for the job with interruptions`).FindStringSubmatch(spot)
	if code != 0 || best == nil || best[1] != hint[1] || best[2] != hint[2] {
		t.Errorf("--pricing spot: exit %d, best %q; the hint said %q:\n%s%s", code, best, hint, spot, errs)
	}
	if strings.Contains(spot, "pay spot instead") {
		t.Errorf("--pricing spot offers the spot hint:\n%s", spot)
	}
	// No price limit: a memory miss gets no spot hint.
	code, out, _ = runWithSpot(t, "recommend", "--model", "llama-3.1-70b", "--task", "finetune", "--providers", "aws", "--gpu", "l4")
	if code != 0 || strings.Contains(out, "pay spot instead") {
		t.Errorf("a memory miss: exit %d, spot hint given:\n%s", code, out)
	}
}
