package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestEstimateMultiNodeNetwork: estimate times a training job on more
// GPUs than one node holds over a node network and says which (issue
// 30): the user's --network-gbps, else the median of the catalog's
// sourced 8-GPU instance types of the GPU (H100 SXM: 1000, 1600, 3200,
// 3200 Gbps: 2400), else the assumed 10 Gbps recommend uses (L4: no
// 8-GPU type has a figure). Per GPU one way: Gbps / 8 bits / 8 GPUs.
// One node has no network; a bad figure is one line and exit 2.
func TestEstimateMultiNodeNetwork(t *testing.T) {
	base := []string{"estimate", "--model", "llama-3.1-8b", "--task", "finetune", "--strategy", "fsdp", "--checkpointing", "--dataset-tokens", "100M", "--json"}
	for _, tt := range []struct {
		name    string
		args    []string
		network *report.NetworkJSON // nil: none
	}{
		{"catalog median", []string{"--gpu", "h100-sxm", "--gpus", "32"}, &report.NetworkJSON{Nodes: 4, GPUsPerNode: 8, Gbps: 2400, PerGPUGBps: 37.5, Source: "catalog", CatalogTypes: 4}},
		{"given", []string{"--gpu", "h100-sxm", "--gpus", "32", "--network-gbps", "3200"}, &report.NetworkJSON{Nodes: 4, GPUsPerNode: 8, Gbps: 3200, PerGPUGBps: 50, Source: "given"}},
		{"given, 4 per node", []string{"--gpu", "h100-sxm", "--gpus", "16", "--gpus-per-node", "4", "--network-gbps", "400"}, &report.NetworkJSON{Nodes: 4, GPUsPerNode: 4, Gbps: 400, PerGPUGBps: 12.5, Source: "given"}},
		{"assumed", []string{"--gpu", "l4", "--gpus", "16"}, &report.NetworkJSON{Nodes: 2, GPUsPerNode: 8, Gbps: 10, PerGPUGBps: 0.15625, Source: "assumed"}},
		{"one node", []string{"--gpu", "h100-sxm", "--gpus", "8"}, nil},
	} {
		code, out, errs := runCLI(t, append(append([]string{}, base...), tt.args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tt.name, code, errs)
		}
		var e report.EstimateJSON
		if err := json.Unmarshal([]byte(out), &e); err != nil {
			t.Fatal(err)
		}
		got := e.Compute.Network
		if (got == nil) != (tt.network == nil) || got != nil && *got != *tt.network {
			t.Errorf("%s: network %+v, want %+v", tt.name, got, tt.network)
		}
		if tt.network != nil && tt.network.Source == "assumed" && !strings.Contains(errs, "timed at an assumed 10 Gbps per node") {
			t.Errorf("%s: no warning on stderr: %q", tt.name, errs)
		}
	}
	for _, bad := range [][]string{{"--network-gbps", "0"}, {"--network-gbps", "-5"}, {"--gpus-per-node", "0"}} {
		code, out, errs := runCLI(t, append(append([]string{}, base...), append([]string{"--gpu", "h100-sxm", "--gpus", "32"}, bad...)...)...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, bad[0]) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line naming the flag", bad, code, out, errs)
		}
	}
}
