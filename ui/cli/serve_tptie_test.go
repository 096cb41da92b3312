package cli

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestServeTPTieSmallerTP: a new user's walk, Llama 3.1 8B at 10
// requests/s × (1000 + 256) tokens with a 500 ms TTFT target on L4s. TP 2
// × 6 replicas and TP 4 × 3 both carry the load, 10 × 256 = 2560 output
// tokens/s, on the same 12 GPUs: a tie, which docs/serving.md gives to the
// smaller TP. The estimate chose TP 4 ("TP 2 serves 2560 output tokens/s
// on the same 12 GPUs where TP 4 serves 2560") because the two rates,
// summed over the replicas, differed in their last bits. Now TP 2, and the
// reason line and JSON chosen say why not TP 1 (10 GPUs, its TPOT range
// crossing the 100 ms default). Failing before: TP 4.
func TestServeTPTieSmallerTP(t *testing.T) {
	base := []string{"estimate", "--model", "llama-3.1-8b", "--task", "serve", "--rps", "10", "--prompt-tokens", "1k",
		"--output-tokens", "256", "--ttft-ms", "500", "--gpu", "l4"}
	e, _ := runCLIJSON[report.ServeEstimateJSON](t, base, "--json")
	if p := e.Plan; p.TP != 2 || p.Replicas != 6 || p.GPUs != 12 {
		t.Errorf("TP %d × %d replicas on %d GPUs, want TP 2 × 6 on 12 (a tie with TP 4 × 3)", p.TP, p.Replicas, p.GPUs)
	}
	if !strings.HasPrefix(e.Plan.Chosen, "TP 2 chosen, not TP 1: TP 1 meets the targets only at the estimate") {
		t.Errorf("chosen = %q, want TP 2 over TP 1, borderline", e.Plan.Chosen)
	}
	code, out, errs := runCLI(t, base...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "TP 2 × PP 1, 6 replicas") || !strings.Contains(out, "↑ "+e.Plan.Chosen) {
		t.Errorf("text does not say the JSON's plan and chosen line (%q):\n%s", e.Plan.Chosen, out)
	}
}
