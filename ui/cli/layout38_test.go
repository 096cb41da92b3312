package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestPhaseLayout: estimate --phase times a phase on the layout export
// --phase writes (plan.OnType): the instance type's GPUs per node, its
// instances, and across them the type's own network, or the catalog's
// rule for a type without one (walk37: --gpus 2 on a phase renting one
// 1-GPU g6e.xlarge was timed as one 2-GPU node, where export wrote 2
// instances at an assumed 10 Gbps).
func TestPhaseLayout(t *testing.T) {
	const file = "testdata/layout38.toml"
	tests := []struct {
		phase              string
		args               []string
		nodes, gpusPerNode int
		gbps               float64 // 0: one node, no network
		source             string
	}{
		{"train", nil, 1, 1, 0, ""},
		{"train", []string{"--gpus", "2"}, 2, 1, 10, "no-fabric"}, // g6e.xlarge: no figure, no fabric (model.NoFabricNetwork)
		{"two", nil, 2, 8, 400, "instance"},                       // aws p4d.24xlarge: network_gbps = 400
	}
	for _, tt := range tests {
		t.Run(tt.phase+strings.Join(tt.args, ""), func(t *testing.T) {
			code, out, errOut := runCLI(t, append([]string{"estimate", "--config", file, "--phase", tt.phase, "--json"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("estimate: exit %d: %s", code, errOut)
			}
			var e struct {
				Compute struct {
					Network *struct {
						Nodes       int     `json:"nodes"`
						GPUsPerNode int     `json:"gpus_per_node"`
						Gbps        float64 `json:"gbps"`
						Source      string  `json:"source"`
					} `json:"network"`
				} `json:"compute"`
			}
			if err := json.Unmarshal([]byte(out), &e); err != nil {
				t.Fatal(err)
			}
			n := e.Compute.Network
			switch {
			case tt.gbps == 0 && n != nil:
				t.Errorf("estimate %v: network %+v, want one node", tt.args, *n)
			case tt.gbps > 0 && (n == nil || n.Nodes != tt.nodes || n.GPUsPerNode != tt.gpusPerNode || n.Gbps != tt.gbps || n.Source != tt.source):
				t.Errorf("estimate %v: network %+v, want %d nodes × %d at %g Gbps (%s)", tt.args, n, tt.nodes, tt.gpusPerNode, tt.gbps, tt.source)
			}
			dst := filepath.Join(t.TempDir(), "run.sh")
			code, out, errOut = runCLI(t, append([]string{"export", "--config", file, "--phase", tt.phase, "--format", "torchrun", "-o", dst, "--json"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("export: exit %d: %s", code, errOut)
			}
			var x exportJSON
			if err := json.Unmarshal([]byte(out), &x); err != nil {
				t.Fatal(err)
			}
			if x.Offer.Nodes != tt.nodes || x.Offer.GPUsPerNode != tt.gpusPerNode {
				t.Errorf("export %v: %d nodes × %d, want %d × %d", tt.args, x.Offer.Nodes, x.Offer.GPUsPerNode, tt.nodes, tt.gpusPerNode)
			}
			if assumed := strings.Contains(errOut, "timed at 10 Gbps per node, the slowest the catalog documents"); assumed != (tt.source == "no-fabric") {
				t.Errorf("export %v: says an assumed 10 Gbps: %v, want %v:\n%s", tt.args, assumed, tt.source == "no-fabric", errOut)
			}
		})
	}
}
