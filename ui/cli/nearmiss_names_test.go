package cli

import (
	"strings"
	"testing"
)

// TestNearMissNamesItsOwnType (a walk): two types of one GPU and host
// size without a network figure shared one shape across nodes, so
// shadeform's crusoe_L40Sx2 said "the catalog has no network figure for"
// primeintellect's crusoecloud__2xL40S_48GB__16__294.
func TestNearMissNamesItsOwnType(t *testing.T) {
	r, _ := runCLIJSON[struct {
		Rejected []struct {
			InstanceType string `json:"instance_type"`
			Reason       string `json:"reason"`
		} `json:"rejected"`
	}](t, []string{"recommend", "--model", "llama-3.1-70b", "--task", "finetune", "--checkpointing", "--allow-multi-node",
		"--dataset-tokens", "1B", "--deadline-hours", "48", "--json"})
	const said = "no network figure for "
	checked := 0
	for _, x := range r.Rejected {
		_, after, ok := strings.Cut(x.Reason, said)
		if !ok {
			continue
		}
		checked++
		if named, _, _ := strings.Cut(after, ";"); named != x.InstanceType {
			t.Errorf("%s: the reason names %q: %s", x.InstanceType, named, x.Reason)
		}
	}
	if checked < 2 {
		t.Errorf("%d near misses name a type without a network figure; the case needs two or more", checked)
	}
}

// TestNoOffersNamesTheGPU (a walk): with --gpu and --providers matching
// nothing together, the refusal named the providers alone, as if vast
// rented nothing.
func TestNoOffersNamesTheGPU(t *testing.T) {
	code, _, errs := runCLI(t, "recommend", "--model", "qwen3-0.6b", "--task", "lora", "--gpu", "t4", "--providers", "vast")
	if code != 2 || !strings.Contains(errs, "providers vast, GPU t4, pricing on-demand") {
		t.Errorf("exit %d: %s; want exit 2 naming the GPU beside the providers", code, errs)
	}
}
