package cli

import (
	"strings"
	"testing"
)

// TestServeBorderlineWhyUnderTable: under the serving table the
// borderline legend is followed by the first such row's reason — the
// band crossed and, when more replicas would clear it for over twice
// the cost, their count — which had been said only in --json and export
// (a new user's walk, at 32768 = 32512 + 256 tokens then; at 32000 now,
// as the RTX 5090's 31.36 GiB of usable memory holds 3 sequences of it a
// replica, which keeps yotta's 1-GPU rows borderline at TP 1 × 3).
func TestServeBorderlineWhyUnderTable(t *testing.T) {
	code, out, errOut := runCLI(t, "recommend", "--task", "inference", "--model", "llama-3.1-8b", "--max-model-len", "32000",
		"--prompt-tokens", "31744", "--output-tokens", "256", "--concurrency", "8", "--providers", "yotta")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	at := strings.Index(out, "\n~ borderline (")
	if at < 0 {
		t.Fatalf("no borderline legend:\n%s", out)
	}
	next := out[at+1:]
	next = next[strings.IndexByte(next, '\n')+1:]
	line, _, _ := strings.Cut(next, "\n")
	if !strings.HasPrefix(line, "  the first, yotta ") || !strings.Contains(line, "crosses the 100.0 ms target") || !strings.Contains(line, "over twice the cost") {
		t.Errorf("the line under the legend is %q; want the first borderline row's reason", line)
	}
}
