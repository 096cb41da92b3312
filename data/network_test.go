package data

import (
	"strings"
	"testing"
)

// TestNetworkFigures holds the inter-node network of the multi-GPU types
// sold for multi-node training to the figure their provider publishes
// (gencatalog tables.go names each source; the new-user report of a
// 26.9-day 2× p5en.48xlarge run came from these types having none, so
// their gradient traffic was timed at model.AssumedNetworkGbps). Each row
// keeps the quoted figure and checks the source line names it.
func TestNetworkFigures(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		provider, typ string
		gbps          float64
		quote         string // in the row's source
	}{
		{"aws", "p4d.24xlarge", 400, "400 Gbps EFA"},
		{"aws", "p5.48xlarge", 3200, "3200 Gbps"},
		{"aws", "p5e.48xlarge", 3200, "total network bandwidth of 3200 Gbps"}, // AWS EC2 User Guide, EFA configuration for P5, P5e and P5en
		{"aws", "p5en.48xlarge", 3200, "total network bandwidth of 3200 Gbps"},
		{"gcp", "a2-highgpu-8g", 100, "a2-highgpu-8g (8 GPUs) 100 Gbit/s"}, // Google Cloud, Networking and GPU machines
		{"gcp", "a2-ultragpu-8g", 100, "max total bandwidth 100 Gbps"},
		{"gcp", "a3-highgpu-8g", 1000, "max total bandwidth 1,000 Gbps"},
		{"gcp", "a3-megagpu-8g", 1600, "up to 1,600 Gbps"},
		{"gcp", "a3-ultragpu-8g", 3200, "total network bandwidth of 3,200 Gbps"},
		{"gcp", "a3-ultragpu-8g-nolssd", 3200, "total network bandwidth of 3,200 Gbps"},
		{"gcp", "a4-highgpu-8g", 3200, "total network bandwidth of 3,200 Gbps"},
		{"azure", "Standard_ND96isr_H100_v5", 3200, "3.2 Tb/s per VM"},
		{"azure", "Standard_ND96asr_v4", 1600, "1.6 Tb/s per VM"},
		{"azure", "Standard_ND96amsr_A100_v4", 1600, "1.6 Tb/s per VM"},
		{"nebius", "gpu-b200-sxm_8gpu-160vcpu-1792gb", 3200, "8x ConnectX-7 IB NDR 400Gb/s"}, // 8 × 400
		{"nebius", "gpu-h200-sxm_8gpu-128vcpu-1600gb", 3200, "8x ConnectX-7 IB NDR 400Gb/s"}, // Nebius MLPerf Training v5.1 nebius_h200_n64, 8 × 400
	} {
		found := false
		for i := range cat.Instances {
			in := &cat.Instances[i]
			if in.Provider != c.provider || in.Type != c.typ {
				continue
			}
			found = true
			if in.NetworkGbps != c.gbps {
				t.Errorf("%s %s: network_gbps %v, want %v", c.provider, c.typ, in.NetworkGbps, c.gbps)
			}
			if !strings.Contains(in.Source, c.quote) {
				t.Errorf("%s %s: source does not quote %q:\n%s", c.provider, c.typ, c.quote, in.Source)
			}
		}
		if !found {
			t.Errorf("%s %s: not in the catalog", c.provider, c.typ)
		}
	}
}
