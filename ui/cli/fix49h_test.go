package cli

import (
	"strings"
	"testing"
)

// TestQLoRAExpertsWarned: Mixtral's QLoRA weights are 85 GiB because its
// routed experts stay 16-bit; estimate and recommend say so in a "!"
// warning naming the count (walk49: only the 11th Assumptions bullet did).
func TestQLoRAExpertsWarned(t *testing.T) {
	job := []string{"--model", "mixtral-8x7b", "--task", "qlora", "--batch-size", "1", "--seq-len", "2048"}
	want := "45.1B parameters of the routed experts stay 16-bit"
	code, out, errs := runCLI(t, append([]string{"estimate", "--gpu", "h100-sxm"}, job...)...)
	if code != 0 || !strings.Contains(out, "! qlora: "+want) {
		t.Errorf("estimate: exit %d, stdout lacks the warning:\n%s%s", code, out, errs)
	}
	code, _, errs = runCLI(t, append([]string{"recommend", "--limit", "1"}, job...)...)
	if code != 0 || !strings.Contains(errs, want) {
		t.Errorf("recommend: exit %d, stderr lacks the warning: %q", code, errs)
	}
}
