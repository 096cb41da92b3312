package cli

import (
	"strings"
	"testing"
)

// TestAnswersUnderBest: the answer to a direct question (--finish-by,
// --max-job-cost) is printed under best:, before the near misses and the
// spot and savings sections, once (a new user's walk: the answer to
// --finish-by 2d was the report's last line, 64 lines below best:).
func TestAnswersUnderBest(t *testing.T) {
	for _, q := range [][]string{{"--finish-by", "2d"}, {"--max-job-cost", "3000"}} {
		code, out, errOut := runCLI(t, append([]string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", "50M"}, q...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", q, code, errOut)
		}
		best, ans := strings.Index(out, "\nbest: "), strings.Index(out, "\n→ ")
		if best < 0 || ans < best || strings.Count(out, "\n→ ") != 1 {
			t.Fatalf("%v: want one answer line after best:\n%s", q, out)
		}
		for _, later := range []string{"\nNear misses", "\nSpot and commitments", "\nWhat saves the most"} {
			if at := strings.Index(out, later); at >= 0 && at < ans {
				t.Errorf("%v: the answer comes after %q:\n%s", q, strings.TrimSpace(later), out)
			}
		}
	}
}
