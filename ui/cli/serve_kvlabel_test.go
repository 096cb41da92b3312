package cli

import (
	"strings"
	"testing"
)

// TestServeRecommendKVTokensPerReplica: recommend's "KV tokens" column is
// one replica's KV cache (serve.Memory.KVTokens), and a new user's walk
// read a 4-replica row's 381k as the offer's; the legend says per
// replica. Failing before: no such line.
func TestServeRecommendKVTokensPerReplica(t *testing.T) {
	code, out, errOut := runCLI(t, "recommend", "--task", "serve", "--model", "llama-3.1-8b", "--concurrency", "4", "--limit", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "KV tokens: per replica") {
		t.Errorf("no per-replica legend for KV tokens:\n%s", out)
	}
}
