package cli

import (
	"encoding/json"
	"testing"
)

// TestRecommendKeepsNamedStrategy: with --strategy single or ddp every
// ranked offer runs data parallel; without it, recommend may shard with
// FSDP where data parallel does not fit (walk 15: --strategy single still
// ranked FSDP rows first).
func TestRecommendKeepsNamedStrategy(t *testing.T) {
	base := []string{"recommend", "--model", "llama-3.1-8b", "--task", "lora", "--dataset-tokens", "20M", "--epochs", "3", "--limit", "0", "--json"}
	strategies := func(args ...string) map[string]int {
		t.Helper()
		code, out, errs := runCLI(t, append(append([]string{}, base...), args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var doc struct {
			Offers []struct {
				Strategy string `json:"strategy"`
			} `json:"offers"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		got := map[string]int{}
		for _, o := range doc.Offers {
			got[o.Strategy]++
		}
		return got
	}
	if free := strategies(); free["fsdp"] == 0 {
		t.Fatalf("without --strategy no offer shards (%v): the test's premise is gone", free)
	}
	for _, s := range []string{"single", "ddp"} {
		if got := strategies("--strategy", s); got["fsdp"] > 0 || len(got) == 0 {
			t.Errorf("--strategy %s: offers by strategy %v, want none sharded", s, got)
		}
	}
}
