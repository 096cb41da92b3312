package plan

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestOnType: a job laid out on an instance type takes the type's GPUs
// per node and, across instances, its network figure, as matching times
// the type (model.HostOf); a type without one but with a GPU fabric is
// left to FillNetwork's rule, one with neither takes the assumed 10 Gbps
// (model.NoFabricNetwork), and the user's network is kept. FillNetwork keeps the type's
// figure (walk37: estimate --phase timed 2 GPUs on 1-GPU instances as
// one node).
func TestOnType(t *testing.T) {
	one := &model.Instance{Provider: "aws", Type: "g6e.xlarge", GPU: "l40s", GPUCount: 1}
	p4d := &model.Instance{Provider: "aws", Type: "p4d.24xlarge", GPU: "a100-40gb", GPUCount: 8, NetworkGbps: 400}
	bm := &model.Instance{Provider: "oci", Type: "BM.GPU4.8", GPU: "a100-40gb", GPUCount: 8, Fabric: "rdma"}
	tests := []struct {
		name    string
		in      *model.Instance
		gpus    int
		given   float64
		perNode int
		gbps    float64
		from    model.NetworkSource
	}{
		{"one node", p4d, 8, 0, 8, 0, ""},
		{"two p4d", p4d, 16, 0, 8, 400, model.NetworkInstance},
		{"two p4d, given", p4d, 16, 100, 8, 100, ""},
		{"two g6e.xlarge: no figure, no fabric: assumed", one, 2, 0, 1, model.AssumedNetworkGbps, model.NetworkNoFabric},
		{"two g6e.xlarge, given", one, 2, 100, 1, 100, ""},
		{"two BM.GPU4.8, RDMA without a figure: FillNetwork's", bm, 16, 0, 8, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := model.Workload{}
			w.GPUs, w.NetworkGbps = tt.gpus, tt.given
			v := OnType(tt.in, w)
			if v.GPUsPerNode != tt.perNode || v.NetworkGbps != tt.gbps || v.NetworkFrom != tt.from {
				t.Errorf("%d per node, %g Gbps (%q); want %d, %g (%q)", v.GPUsPerNode, v.NetworkGbps, v.NetworkFrom, tt.perNode, tt.gbps, tt.from)
			}
		})
	}
	// The catalog's rule keeps the type's own figure.
	cat := &model.Catalog{}
	w := OnType(p4d, model.Workload{Settings: model.Settings{GPUs: 16}})
	cat.FillNetwork(&w, &model.GPU{Key: "a100-40gb"})
	if w.NetworkGbps != 400 || w.NetworkFrom != model.NetworkInstance {
		t.Errorf("FillNetwork: %g Gbps (%q), want 400 (instance)", w.NetworkGbps, w.NetworkFrom)
	}
}
