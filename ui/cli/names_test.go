package cli

import (
	"strings"
	"testing"
)

// TestNewUserModelNames (the names walk): Hugging Face ids a new user
// types resolve to the catalog entry of their architecture, which the
// estimate's header names. DeepSeek-R1-Distill-Qwen-1.5B answered
// "unknown model" with no suggestion while its 7B–70B siblings resolved.
func TestNewUserModelNames(t *testing.T) {
	for _, tc := range []struct{ model, header string }{
		{"deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "DeepSeek-R1-Distill-Qwen 1.5B · inference"},
	} {
		code, out, errs := runCLI(t, "estimate", "--model", tc.model, "--task", "inference")
		if first, _, _ := strings.Cut(out, "\n"); code != 0 || !strings.HasPrefix(first, tc.header) {
			t.Errorf("--model %s: exit %d, first line %q, want it to start %q\n%s", tc.model, code, first, tc.header, errs)
		}
	}
}
