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
	w := Workload{Model: llama31_8B, Task: TaskFinetune, MicroBatch: 1, SeqLen: 2048, GPUs: 16, Strategy: FSDP,
		Checkpointing: Bool(true), DatasetTokens: 1e9}
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
