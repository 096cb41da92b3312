package cli

import (
	"strings"
	"testing"
)

// TestServeBorderlineMarksItsCause: a borderline row's "~" is on the
// figure whose 90% range is the cause, the KV tokens or the TPOT, and the
// legend names each cause shown. A new user's walk: g5.12xlarge showed
// "TPOT ~45.7" against a 100 ms target while the JSON said the KV
// cache's range was the reason. Failing before: "~" on the TPOT, no
// legend per cause.
func TestServeBorderlineMarksItsCause(t *testing.T) {
	code, out, errs := runCLI(t, "recommend", "--model", "qwen3-32b", "--task", "serve", "--max-model-len", "32768",
		"--concurrency", "16", "--tpot-ms", "100", "--providers", "aws", "--limit", "0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var row string
	for l := range strings.SplitSeq(out, "\n") {
		if strings.Contains(l, " g5.12xlarge ") {
			row = l
		}
	}
	if !strings.Contains(row, " ~49.7k ") || strings.Contains(row, "~45.7") {
		t.Errorf("g5.12xlarge, borderline by its KV cache: want \"~\" on the KV tokens, not the TPOT:\n%s", row)
	}
	for _, want := range []string{
		"~ on KV tokens (2 offers): the low end of the KV cache's 90% range holds fewer sequences than each replica runs",
		"~ on TPOT ms (2 offers): the slow end of the TPOT's 90% range is over the target",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
}
