package cli

import (
	"strings"
	"testing"
)

// TestReleaseIDIsANote: what a quantized release's id names ("Qwen/
// Qwen3-32B-AWQ is Qwen3 32B with AWQ 4-bit weights") is information; a
// new user's walk read it as "warning:". Failing before: the warning.
func TestReleaseIDIsANote(t *testing.T) {
	code, _, errOut := runCLI(t, "estimate", "--task", "serve", "--model", "Qwen/Qwen3-32B-AWQ", "--gpu", "h100")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "gpuplan: note: Qwen/Qwen3-32B-AWQ is Qwen3 32B with AWQ 4-bit weights") || strings.Contains(errOut, "warning: Qwen/Qwen3-32B-AWQ") {
		t.Errorf("stderr %q; want the release said as a note", errOut)
	}
}
