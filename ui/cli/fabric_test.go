package cli

import (
	"slices"
	"testing"
)

// TestOffersFabricFilter (walk49): --efa and --infiniband keep every host
// whose catalog entry names a GPU network between nodes. Before, a table
// of six types held the fabric: --efa --providers aws listed p4d and p5
// only, --infiniband six rows in all.
func TestOffersFabricFilter(t *testing.T) {
	type row struct {
		Provider     string `json:"provider"`
		InstanceType string `json:"instance_type"`
		Fabric       string `json:"fabric"`
	}
	rows := func(args ...string) []row {
		t.Helper()
		m, _ := runCLIJSON[struct{ Rows []row }](t, []string{"offers", "--json"}, args...)
		return m.Rows
	}
	has := func(rs []row, provider, typ, fabric string) bool {
		return slices.ContainsFunc(rs, func(r row) bool {
			return r.Provider == provider && r.InstanceType == typ && r.Fabric == fabric
		})
	}
	// Spot: p5e.48xlarge has no on-demand price in the catalog.
	efa := rows("--efa", "--providers", "aws", "--pricing", "spot")
	for _, typ := range []string{"p4d.24xlarge", "p4de.24xlarge", "p5.48xlarge", "p5e.48xlarge", "p5en.48xlarge", "p6-b200.48xlarge", "p6-b300.48xlarge"} {
		if !has(efa, "aws", typ, "efa") {
			t.Errorf("offers --efa --providers aws: no %s with fabric efa in %+v", typ, efa)
		}
	}
	// A4 and A3 Ultra sell by reservation, flex-start or spot: both modes.
	ib := append(rows("--infiniband"), rows("--infiniband", "--pricing", "spot")...)
	for _, w := range []struct{ provider, typ, fabric string }{
		{"azure", "Standard_ND96isr_H100_v5", "infiniband"},
		{"nebius", "gpu-b200-sxm_8gpu-160vcpu-1792gb", "infiniband"},
		{"nebius", "gpu-h200-sxm_8gpu-128vcpu-1600gb", "infiniband"},
		{"gcp", "a3-megagpu-8g", "gpudirect-tcpxo"},
		{"gcp", "a4-highgpu-8g", "roce"},
		{"oci", "BM.GPU.A100-v2.8", "rdma"},
		{"aws", "p6-b300.48xlarge", "efa"},
	} {
		if !has(ib, w.provider, w.typ, w.fabric) {
			t.Errorf("offers --infiniband: no %s %s with fabric %s", w.provider, w.typ, w.fabric)
		}
	}
	if len(ib) < 25 {
		t.Errorf("offers --infiniband: %d rows, want every host with a fabric (≥ 25 over on-demand and spot)", len(ib))
	}
	for _, r := range ib {
		if r.Fabric == "" {
			t.Errorf("offers --infiniband keeps %s %s, which has no fabric", r.Provider, r.InstanceType)
		}
	}
}
