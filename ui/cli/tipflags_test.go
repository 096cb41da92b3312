package cli

import (
	"strings"
	"testing"
)

// TestTipsNameTheirFlags (a verification walk): estimate's "what saves
// the most" line read "↓ turn on activation checkpointing (about 33% more
// compute): 74.38 GiB → 38.94 GiB", without the flag the fit advice above
// it names; a tip is acted on the same way, so it ends in its flags too.
func TestTipsNameTheirFlags(t *testing.T) {
	code, out, errs := runCLI(t, "estimate", "--model", "qwen3-14b", "--task", "lora", "--gpu", "a100-80gb")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	at := strings.Index(out, "what saves the most")
	if at < 0 {
		t.Fatalf("no tips:\n%s", out)
	}
	if tip := out[at:]; !strings.Contains(tip, "(--checkpointing): ") {
		t.Errorf("the tip names no flags:\n%s", tip)
	}
}
