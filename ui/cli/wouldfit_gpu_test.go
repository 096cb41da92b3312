package cli

import (
	"strings"
	"testing"
)

// TestRecommendWouldFitRunsOnTheGPU: "What would make it fit" advises for
// the near miss's GPU what that GPU runs, sharded up to the node it is
// rented in (advice.FitAdviceOn), as estimate --gpu does. A Qwen3 14B
// full fine-tune on V100s (no bf16) was told nothing: every change the
// GPU-agnostic advice found to fit trained in pure bf16, which no V100
// offer ranks, while checkpointing with a chunked loss and 8-bit AdamW
// fits 8×V100 (fails before: no would_fit).
func TestRecommendWouldFitRunsOnTheGPU(t *testing.T) {
	base := []string{"recommend", "--model", "qwen3-14b", "--task", "finetune", "--gpu", "v100-32gb"}
	type ranking struct {
		Offers []struct {
			InstanceType string  `json:"instance_type"`
			USDPerHour   float64 `json:"usd_per_hour"`
		} `json:"offers"`
		WouldFit []struct {
			Change string `json:"change"`
			Offers int    `json:"offers"`
			Best   struct {
				InstanceType string `json:"instance_type"`
			} `json:"best"`
		} `json:"would_fit"`
	}
	none, _ := runCLIJSON[ranking](t, base, "--json")
	if len(none.Offers) != 0 {
		t.Fatalf("ranks %d offers; the test needs a workload no V100 offer runs", len(none.Offers))
	}
	if len(none.WouldFit) == 0 {
		t.Fatal("no would_fit for a job that 8×V100 run with checkpointing, a chunked loss and 8-bit AdamW")
	}
	for _, h := range none.WouldFit {
		if strings.Contains(h.Change, "pure bf16") || strings.Contains(h.Change, "--precision bf16") {
			t.Errorf("hint %q: a V100 has no bf16", h.Change)
		}
		// The flags the hint names rank what it says.
		flags := advisedFlags(h.Change)
		if flags == nil {
			continue
		}
		with, _ := runCLIJSON[ranking](t, base, append(flags, "--json")...)
		if len(with.Offers) != h.Offers || with.Offers[0].InstanceType != h.Best.InstanceType {
			t.Errorf("hint %q: %d offers, best %s; its flags rank %d", h.Change, h.Offers, h.Best.InstanceType, len(with.Offers))
		}
	}
}
