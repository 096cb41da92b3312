package data

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestNetworkFigures holds the inter-node network (figure and fabric) of the multi-GPU types
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
		gbps          float64 // 0: none published
		fabric        string  // between nodes (model.Fabrics)
		quote         string  // in the row's source
	}{
		{"aws", "p4d.24xlarge", 400, "efa", "400 Gbps EFA"},
		{"aws", "p4de.24xlarge", 400, "efa", "p4de.24xlarge 400000"}, // walk49: no figure, no fabric; AWS's network specifications, SkyPilot's EFA table
		{"aws", "p5.4xlarge", 100, "efa", "p5.4xlarge 100000"},
		{"aws", "p5.48xlarge", 3200, "efa", "3200 Gbps"},
		{"aws", "p5e.48xlarge", 3200, "efa", "total network bandwidth of 3200 Gbps"}, // AWS EC2 User Guide, EFA configuration for P5, P5e and P5en
		{"aws", "p5en.48xlarge", 3200, "efa", "total network bandwidth of 3200 Gbps"},
		{"aws", "p6-b200.48xlarge", 3200, "efa", "p6-b200.48xlarge 3200000"}, // walk49: aws-ofi-nccl's P6-B200 EFA entry
		{"aws", "p6-b300.48xlarge", 6400, "efa", "p6-b300.48xlarge 6400000"},
		{"gcp", "a2-highgpu-8g", 100, "", "a2-highgpu-8g (8 GPUs) 100 Gbit/s"}, // Google Cloud, Networking and GPU machines
		{"gcp", "a2-ultragpu-8g", 100, "", "max total bandwidth 100 Gbps"},
		{"gcp", "a3-highgpu-8g", 1000, "gpudirect-tcpx", "max total bandwidth 1,000 Gbps, GPUDirect-TCPX"},
		{"gcp", "a3-megagpu-8g", 1600, "gpudirect-tcpxo", "up to 1,600 Gbps' (GPUDirect-TCPXO"},
		{"gcp", "a3-ultragpu-8g", 3200, "roce", "total network bandwidth of 3,200 Gbps"},
		{"gcp", "a3-ultragpu-8g-nolssd", 3200, "roce", "RDMA support via RoCE"},
		{"gcp", "a4-highgpu-8g", 3200, "roce", "GPUDirect-RDMA on A3 Ultra, and A4 machine types"},
		{"azure", "Standard_ND96isr_H100_v5", 3200, "infiniband", "3.2 Tb/s per VM"},
		{"azure", "Standard_ND96asr_v4", 1600, "infiniband", "1.6 Tb/s per VM"},
		{"azure", "Standard_ND96amsr_A100_v4", 1600, "infiniband", "1.6 Tb/s per VM"},
		{"azure", "Standard_ND40rs_v2", 100, "infiniband", "100 Gb/s InfiniBand EDR"},
		{"nebius", "gpu-b200-sxm_8gpu-160vcpu-1792gb", 3200, "infiniband", "8x ConnectX-7 IB NDR 400Gb/s"}, // 8 × 400
		{"nebius", "gpu-h200-sxm_8gpu-128vcpu-1600gb", 3200, "infiniband", "8x ConnectX-7 IB NDR 400Gb/s"}, // Nebius MLPerf Training v5.1 nebius_h200_n64, 8 × 400
		{"oci", "BM.GPU.A100-v2.8", 0, "rdma", "supported shapes BM.HPC2.36, BM.GPU.A100-v2.8, BM.GPU4.8"}, // Oracle, cluster networks
		{"oci", "BM.GPU4.8", 0, "rdma", "supported shapes BM.HPC2.36, BM.GPU.A100-v2.8, BM.GPU4.8"},
	} {
		found := false
		for i := range cat.Instances {
			in := &cat.Instances[i]
			if in.Provider != c.provider || in.Type != c.typ {
				continue
			}
			found = true
			if in.NetworkGbps != c.gbps || in.Fabric != c.fabric {
				t.Errorf("%s %s: network_gbps %v, fabric %q; want %v, %q", c.provider, c.typ, in.NetworkGbps, in.Fabric, c.gbps, c.fabric)
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

// TestFabricSourced: every catalog row that names a fabric between nodes
// quotes it in its source (walk49: --efa and --infiniband read the
// fabric, so an unsourced one would list a host as cluster-ready).
func TestFabricSourced(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	words := map[string]string{"efa": "EFA", "infiniband": "InfiniBand", "roce": "RoCE", "rdma": "RDMA",
		"gpudirect-tcpx": "GPUDirect-TCPX", "gpudirect-tcpxo": "GPUDirect-TCPXO"}
	n := 0
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if in.Fabric == "" {
			continue
		}
		n++
		w, ok := words[in.Fabric]
		if !ok {
			t.Errorf("%s %s: fabric %q is not one of model.Fabrics", in.Provider, in.Type, in.Fabric)
			continue
		}
		if !strings.Contains(in.Source, w) && !strings.Contains(in.Source, "IB NDR") {
			t.Errorf("%s %s: fabric %s, but the source does not say %s:\n%s", in.Provider, in.Type, in.Fabric, w, in.Source)
		}
	}
	if n < 21 {
		t.Errorf("%d rows name a fabric, want at least 21", n)
	}
}

// TestOCIGraceBlackwellInterconnect (walk49: OCI GB200 "not stated"):
// the four GPUs of a GB200/GB300 shape sit on an NVLink 72 domain, as
// Oracle's GPU memory fabric page says.
func TestOCIGraceBlackwellInterconnect(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"BM.GPU.GB200.4", "BM.GPU.GB300.4"} {
		var in *model.Instance
		for i := range cat.Instances {
			if cat.Instances[i].Provider == "oci" && cat.Instances[i].Type == typ {
				in = &cat.Instances[i]
			}
		}
		if in == nil {
			t.Fatalf("oci %s not in the catalog", typ)
		}
		if in.Interconnect != "nvlink" || !strings.Contains(in.Source, "Supported Compute shapes are BM.GPU.GB200.4 and BM.GPU.GB300.4") {
			t.Errorf("oci %s: interconnect %q, source %q; want nvlink quoting Oracle's GPU memory fabric page", typ, in.Interconnect, in.Source)
		}
	}
}
