package data

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// gcpDWSRows are rows of skypilot-org/skypilot-catalog catalogs/v8/gcp/
// vms.csv @ 006059e0 (the reference extract), cell text unchanged.
const gcpDWSRows = `InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice
a2-ultragpu-1g,12.0,170.0,,,,us-central1,us-central1-a,1.09962,0.54978
,,,A100-80GB,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 81920}}]},us-central1,us-central1-a,1.8462,1.964
a3-highgpu-8g,208.0,1872.0,,,,asia-east1,asia-east1-c,10.95381,2.74269
a3-highgpu-8g,208.0,1872.0,,,,asia-northeast1,asia-northeast1-b,12.14861,3.04013
a3-highgpu-8g,208.0,1872.0,,,,asia-south1,asia-south1-c,9.83846,2.25285
a3-highgpu-8g,208.0,1872.0,,,,asia-south2,asia-south2-b,11.36248,2.59792
,,,H100,8,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 81920}}]},asia-east1,asia-east1-c,90.74744,22.7296
,,,H100,8,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 81920}}]},asia-northeast1,asia-northeast1-b,33.60609,28.4624
,,,H100,8,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 81920}}]},asia-south1,asia-south1-c,81.50728,18.64
,,,H100,8,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 81920}}]},asia-south2,asia-south2-b,94.13312,21.5272
a3-highgpu-1g,26.0,234.0,,,,us-central1,us-central1-a,1.18251,0.36117
,,,H100,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 81920}}]},us-central1,us-central1-a,4.20076,2.9926
`

// TestGCPFlexStart pins the fix of catalog audit #1 and #2 on real rows:
// DWS prices move from on-demand to flex_start, types without an
// on-demand option keep only their other modes.
func TestGCPFlexStart(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	insts, warns, err := ReadSkyPilotCSV(strings.NewReader(gcpDWSRows), "vms.csv", "gcp", CatalogGPUResolver(c))
	if err != nil {
		t.Fatal(err)
	}
	type want struct{ od, spot, flex float64 }
	cases := []struct {
		typ, region string
		want        want
		why         string
	}{
		// A100-80GB us-central1: on-demand 1.8462 below spot 1.964 (audit #1 (a)).
		{"a2-ultragpu-1g", "us-central1", want{0, 0.54978 + 1.964, 1.09962 + 1.8462}, "GPU on-demand below its spot"},
		{"a3-highgpu-8g", "asia-east1", want{10.95381 + 90.74744, 2.74269 + 22.7296, 0}, "list price"},
		// 33.60609 < 0.6 × median(33.60609, 81.50728, 90.74744, 94.13312) = 0.6 × 86.12736 = 51.68.
		{"a3-highgpu-8g", "asia-northeast1", want{0, 3.04013 + 28.4624, 12.14861 + 33.60609}, "43% of the median: DWS"},
		{"a3-highgpu-8g", "asia-south1", want{9.83846 + 81.50728, 2.25285 + 18.64, 0}, "95% of the median: list"},
		// a3-highgpu-1g: spot or flex-start only (GCP consumption options); its 5.38 is not on-demand.
		{"a3-highgpu-1g", "us-central1", want{0, 0.36117 + 2.9926, 0}, "A3 High 1g sells no on-demand"},
	}
	for _, tt := range cases {
		rp := findPrice(insts, tt.typ, tt.region)
		if rp == nil {
			t.Errorf("%s %s: missing", tt.typ, tt.region)
			continue
		}
		got := want{rp.OnDemandUSD, rp.SpotUSD, rp.FlexStartUSD}
		if !near(got.od, tt.want.od) || !near(got.spot, tt.want.spot) || !near(got.flex, tt.want.flex) {
			t.Errorf("%s %s (%s): on-demand/spot/flex = %v, want %v", tt.typ, tt.region, tt.why, got, tt.want)
		}
	}
	for _, in := range insts {
		if in.SkyPilotAccelerator == "" {
			t.Errorf("%s: no SkyPilot accelerator name", in.Type)
		}
	}
	if in := findInstance(insts, "a3-highgpu-8g"); in == nil || in.SkyPilotAccelerator != "H100" {
		t.Errorf("a3-highgpu-8g SkyPilot accelerator = %+v, want H100", in)
	}
	wantWarnings(t, warns, "GCP A100-80GB GPU rows priced on-demand below spot", "GCP H100 GPU rows priced on-demand below 60% of the median $86.13")
}

func near(a, b float64) bool { return a-b < 1e-6 && b-a < 1e-6 }

func findInstance(insts []model.Instance, typ string) *model.Instance {
	for i := range insts {
		if insts[i].Type == typ {
			return &insts[i]
		}
	}
	return nil
}

func findPrice(insts []model.Instance, typ, region string) *model.RegionPrice {
	in := findInstance(insts, typ)
	if in == nil {
		return nil
	}
	for j := range in.Prices {
		if in.Prices[j].Region == region {
			return &in.Prices[j]
		}
	}
	return nil
}

// TestA100FormFactor pins catalog audit #5: A100 PCIe cards resolve to the
// PCIe entries (1935 GB/s, 300 W), SXM modules stay SXM.
func TestA100FormFactor(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	resolve := CatalogGPUResolver(c)
	tests := []struct {
		accel  string
		memMiB float64
		typ    string
		want   string
	}{
		{"A100-80GB", 0, "Standard_NC24ads_A100_v4", "a100-pcie-80gb"}, // Azure: memory unknown, NC A100 v4 is PCIe
		{"A100-80GB", 81920, "A100_PCIE_80GB::4", "a100-pcie-80gb"},    // Fluidstack
		{"A100-80GB", 81920, "1x-A100_PCIE-32-65536", "a100-pcie-80gb"},
		{"A100", 40960, "gpu_1x_a100_pcie", "a100-pcie-40gb"},
		{"A100-80GB", 0, "Standard_ND96amsr_A100_v4", "a100-80gb"}, // ND: SXM with NVLink
		{"A100-80GB", 81920, "a2-ultragpu-1g", "a100-80gb"},
		{"A100", 40960, "p4d.24xlarge", "a100-40gb"},
	}
	for _, tt := range tests {
		got, ok := resolve(tt.accel, tt.memMiB, tt.typ)
		if !ok || got != tt.want {
			t.Errorf("resolve(%q, %v, %q) = %q, %v; want %q", tt.accel, tt.memMiB, tt.typ, got, ok, tt.want)
		}
	}
	g, _ := c.GPU("a100-pcie-80gb")
	if g.MemoryBandwidthGBps != 1935 || g.TDPWatts != 300 || g.Interconnect != "pcie" {
		t.Errorf("a100-pcie-80gb = %v GB/s, %v W, %s; want 1935 GB/s, 300 W, pcie (A100 datasheet)", g.MemoryBandwidthGBps, g.TDPWatts, g.Interconnect)
	}
}
