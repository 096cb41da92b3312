package model

import (
	"testing"
)

// Matching retimes each estimate over the instance's host (HostOf): two
// 8-GPU instance types with the same GPU and price but 3200 vs 100 Gbps
// networking (two providers, so both are offered) give a two-node FSDP
// job different times, and job-cost
// ranking puts the well-connected one first.
func TestRecommendRetimesPerInstance(t *testing.T) {
	c := &Catalog{
		GPUs: []GPU{{Key: "h", Name: "H", MemoryGiB: 80, ComputeCapability: "9.0", FP32TFLOPS: 67, TF32TFLOPS: 494,
			FP16TFLOPS: 989, BF16TFLOPS: 989, MemoryBandwidthGBps: 3350, InterconnectGBps: 900}},
		Instances: []Instance{
			{Provider: "p", Type: "fast.8", GPU: "h", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048, Interconnect: "nvswitch", NetworkGbps: 3200,
				Prices: []RegionPrice{{Region: "r", OnDemandUSD: 80}}},
			{Provider: "q", Type: "slow.8", GPU: "h", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048, Interconnect: "nvswitch", NetworkGbps: 100,
				Prices: []RegionPrice{{Region: "r", OnDemandUSD: 80}}},
		},
	}
	c.Index()
	w := Workload{
		Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 2048, GPUs: 16, Strategy: FSDP, Checkpointing: Bool(true), DatasetTokens: 1e9},
		Model:    llama31_8B,
	}
	r, err := Recommend(w, c, Query{AllowMultiNode: true, Sort: SortJob})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Offers) != 2 {
		t.Fatalf("offers %s, rejected %+v", offerNames(r), r.Rejected)
	}
	hours := map[string]float64{}
	for _, o := range r.Offers {
		// Each offer's time is Compute's, retimed over its own host.
		e, err := Compute(o.Estimate.Workload, o.GPU)
		if err != nil {
			t.Fatal(err)
		}
		e.Retime(o.GPU, HostOf(o.Instance, o.GPU))
		if o.JobHours != e.Hours {
			t.Errorf("%s: job %.4f h, want the retimed %.4f h", o.Instance.Type, o.JobHours, e.Hours)
		}
		hours[o.Instance.Type] = o.JobHours
	}
	if !(hours["fast.8"] < hours["slow.8"]) {
		t.Errorf("fast.8 %.3f h, slow.8 %.3f h: the 100 Gbps network should cost time", hours["fast.8"], hours["slow.8"])
	}
	if r.Offers[0].Instance.Type != "fast.8" {
		t.Errorf("ranking %s: want fast.8 first", offerNames(r))
	}
}

// An instance type without network_gbps is timed across nodes at
// AssumedNetworkGbps (10 Gbps, AWS P3 blog table), not at its GPU link:
// per GPU one direction = Gbps / 8 bits / GPUs per node.
func TestHostOfUnknownNetwork(t *testing.T) {
	g := &GPU{InterconnectGBps: 600}
	for _, tt := range []struct {
		name    string
		inst    Instance
		inter   float64
		assumed bool
	}{
		{"3200 Gbps over 8 GPUs: 3200/8/8", Instance{GPUCount: 8, NetworkGbps: 3200}, 50, false},
		{"unknown, 1 GPU: 10/8/1", Instance{GPUCount: 1}, 1.25, true},
		{"unknown, 2 GPUs: 10/8/2", Instance{GPUCount: 2}, 0.625, true},
	} {
		h := HostOf(&tt.inst, g)
		if h.InterGBps != tt.inter || h.NetworkAssumed != tt.assumed || h.IntraGBps != 300 {
			t.Errorf("%s: inter %g GB/s assumed %v intra %g, want %g, %v, 300", tt.name, h.InterGBps, h.NetworkAssumed, h.IntraGBps, tt.inter, tt.assumed)
		}
	}
}

// Sixteen single-GPU nodes of unknown network must not be timed like two
// 3200 Gbps NVSwitch nodes (new-user trial: both got the same hours).
func TestUnknownNetworkRanksBelowKnown(t *testing.T) {
	c := &Catalog{
		GPUs: []GPU{{Key: "h", Name: "H", MemoryGiB: 80, ComputeCapability: "9.0", FP32TFLOPS: 67, TF32TFLOPS: 494,
			FP16TFLOPS: 989, BF16TFLOPS: 989, MemoryBandwidthGBps: 3350, InterconnectGBps: 900}},
		Instances: []Instance{
			{Provider: "p", Type: "fast.8", GPU: "h", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048, Interconnect: "nvswitch", NetworkGbps: 3200,
				Prices: []RegionPrice{{Region: "r", OnDemandUSD: 80}}},
			{Provider: "q", Type: "lone.1", GPU: "h", GPUCount: 1, VCPUs: 24, MemoryGiB: 256,
				Prices: []RegionPrice{{Region: "r", OnDemandUSD: 10}}},
		},
	}
	c.Index()
	w := Workload{
		Settings: Settings{Task: TaskFinetune, MicroBatch: 2, SeqLen: 2048, GPUs: 16, Strategy: ZeRO3, Checkpointing: Bool(true), DatasetTokens: 5e8},
		Model:    llama31_8B,
	}
	r, err := Recommend(w, c, Query{AllowMultiNode: true, Sort: SortTime})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Offers) != 2 {
		t.Fatalf("offers %s, rejected %+v", offerNames(r), r.Rejected)
	}
	by := map[string]Offer{}
	for _, o := range r.Offers {
		by[o.Instance.Type] = o
	}
	if !(by["lone.1"].JobHours > by["fast.8"].JobHours) {
		t.Errorf("lone.1 %.3f h, fast.8 %.3f h: unknown network should cost time", by["lone.1"].JobHours, by["fast.8"].JobHours)
	}
	if r.Offers[0].Instance.Type != "fast.8" {
		t.Errorf("ranking %s: want fast.8 first", offerNames(r))
	}
	if !hasWarning(by["lone.1"], "timed at 10 Gbps per node, the slowest the catalog documents") || hasWarning(by["fast.8"], "timed at") {
		t.Errorf("warnings lone.1 %v, fast.8 %v: want the assumed-network warning on lone.1 only", hasWarningsOf(by["lone.1"]), hasWarningsOf(by["fast.8"]))
	}
}

func hasWarningsOf(o Offer) []string { return o.Warnings() }
