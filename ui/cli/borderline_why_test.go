package cli

import (
	"strings"
	"testing"
)

// TestServeBorderlineWhyUnderTable: under the serving table the
// borderline legend is followed by the first such row's reason — the
// band crossed and, when more replicas would clear it for over twice
// the cost, their count — which had been said only in --json and export
// (a new user's walk).
func TestServeBorderlineWhyUnderTable(t *testing.T) {
	code, out, errOut := runCLI(t, "recommend", "--task", "inference", "--model", "llama-3.1-8b", "--max-model-len", "32768",
		"--prompt-tokens", "32512", "--output-tokens", "256", "--concurrency", "8", "--providers", "yotta")
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
