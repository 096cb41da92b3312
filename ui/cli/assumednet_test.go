package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDeadlineOnAssumedNetworkListed (issue 30): Nebius's 8×H100 type
// has no network figure in the catalog and names no fabric, so 4 of its
// nodes are timed at the assumed 10 Gbps (model.NoFabricNetwork; for a
// while the median of the catalog's 8-GPU H100 SXM types, which are all
// InfiniBand or EFA nodes) and miss a 30 h deadline; the miss is a near miss
// whose reason names the figure and where it comes from, in the text and
// in --json, not dropped silently (it was counted under "deadline" alone).
func TestDeadlineOnAssumedNetworkListed(t *testing.T) {
	args := []string{"recommend", "--model", "meta-llama/Llama-3.1-70B", "--task", "finetune", "--strategy", "fsdp", "--gpus", "32",
		"--batch-size", "1", "--seq-len", "4096", "--checkpointing", "--dataset-tokens", "2B", "--allow-multi-node",
		"--deadline-hours", "30", "--providers", "nebius", "--no-savings"}
	const why = "the catalog has no network figure for gpu-h100-sxm_8gpu-128vcpu-1600gb; timed at 10 Gbps per node, the slowest the catalog documents, as no InfiniBand, EFA or RDMA between its instances is documented either: separately rented VMs may share plain Ethernet, and the time errs long if they share more (--network-gbps for yours)"
	code, out, errs := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "nebius     gpu-h100-sxm_8gpu-128vcpu-1600gb") || !strings.Contains(out, why) {
		t.Errorf("no near miss for gpu-h100-sxm_8gpu-128vcpu-1600gb saying %q in\n%s", why, out)
	}
	code, out, errs = runCLI(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errs)
	}
	var rec struct {
		Rejected []struct {
			InstanceType string `json:"instance_type"`
			Reason       string `json:"reason"`
		} `json:"rejected"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	found := false
	for _, x := range rec.Rejected {
		found = found || x.InstanceType == "gpu-h100-sxm_8gpu-128vcpu-1600gb" && strings.HasSuffix(x.Reason, why)
	}
	if !found {
		t.Errorf("--json rejected %+v: no gpu-h100-sxm_8gpu-128vcpu-1600gb ending %q", rec.Rejected, why)
	}
}
