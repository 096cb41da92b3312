package cli

import (
	"strings"
	"testing"
)

// TestOffloadAutoGPUsRanksOneGPU (a walk): --strategy zero3
// --offload-optimizer without --gpus tried every 1-GPU type as single,
// which Validate refuses with an offload, so all were "invalid
// deployment" near misses and the best offer was a 2-GPU host, while
// --gpus 1 ranked a cheaper 1-GPU host that fits. ZeRO-Offload runs on
// one GPU: the auto count now keeps the strategy there.
func TestOffloadAutoGPUsRanksOneGPU(t *testing.T) {
	type offer struct {
		Provider     string  `json:"provider"`
		InstanceType string  `json:"instance_type"`
		GPUCount     int     `json:"gpu_count"`
		Strategy     string  `json:"strategy"`
		USDPerHour   float64 `json:"price_per_hour_usd"`
	}
	type doc struct {
		Offers   []offer `json:"offers"`
		Rejected []struct {
			Reason string `json:"reason"`
		} `json:"rejected"`
	}
	base := []string{"recommend", "--model", "qwen3-14b", "--task", "finetune", "--strategy", "zero3", "--offload-optimizer", "--checkpointing", "--json"}
	auto, _ := runCLIJSON[doc](t, base)
	one, _ := runCLIJSON[doc](t, base, "--gpus", "1")
	if len(auto.Offers) == 0 || len(one.Offers) == 0 {
		t.Fatalf("auto ranks %d offers, --gpus 1 %d", len(auto.Offers), len(one.Offers))
	}
	if a, o := auto.Offers[0], one.Offers[0]; a.USDPerHour > o.USDPerHour || a.GPUCount != 1 || a.Strategy != "zero3" {
		t.Errorf("auto's best %+v; --gpus 1's %+v: want a 1-GPU zero3 offer at most its price", a, o)
	}
	for _, r := range auto.Rejected {
		if strings.Contains(r.Reason, "offload") {
			t.Errorf("near miss %q: the offload refused on one GPU", r.Reason)
		}
	}
}
