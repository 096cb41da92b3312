package cli

import (
	"strings"
	"testing"
)

// --budget-job caps the whole job's cost beside --budget-month.
func TestBudgetJobFlag(t *testing.T) {
	base := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", "20M"}
	code, out, errs := runCLI(t, append(base, "--budget-job", "1")...)
	if code != 0 || !strings.Contains(out, "job budget") {
		t.Errorf("--budget-job 1: exit %d, stderr %q; want the summary to count offers over the job budget:\n%s", code, errs, out)
	}
	code, _, errs = runCLI(t, append(base, "--budget-job", "0")...)
	if code != 2 || !strings.Contains(errs, "--budget-job must be > 0") {
		t.Errorf("--budget-job 0: exit %d, stderr %q; want 2 and a line naming the flag", code, errs)
	}
}
