package model

import "testing"

// TestNoBandwidthNoTime: a GPU row without a memory bandwidth gets no
// time for a workload whose time is bound by memory traffic (a CNN's
// roofline, decoding, QLoRA's dequantization), so it can never rank
// faster than a GPU whose time counts its memory. Before, the roofline
// took the compute bound alone: an A30 without its 933 GB/s timed
// ResNet-50 faster than an A100.
func TestNoBandwidthNoTime(t *testing.T) {
	eff := Architecture{Key: "efficientnet-b0", Family: FamilyCNN, Params: 5288548, ForwardGMACs: 0.386, ActivationMiBPerSample: 42.05, ImageSize: 224}
	tn := Tuning{HFUTransformer: 0.52, HopperFactor: 0.68, MFUConv: 0.21, CNNTrafficFactor: 10}
	cnn := Workload{Settings: Settings{MicroBatch: 256, DatasetSamples: 1.28e6}, Model: eff, Tuning: &tn}
	// Ten times the A100's peak, no bandwidth.
	fast := &GPU{Key: "nobw", Name: "NoBW", MemoryGiB: 80, ComputeCapability: "8.0", FP32TFLOPS: 195, TF32TFLOPS: 1560, FP16TFLOPS: 3120, BF16TFLOPS: 3120}

	for name, w := range map[string]Workload{
		"cnn roofline": cnn,
		"decoding":     {Settings: Settings{Task: TaskInference, Precision: BF16, ContextLen: 2048, Sequences: 4, DatasetSamples: 1000}, Model: llama31_8B},
		"qlora":        {Settings: Settings{Task: TaskQLoRA, MicroBatch: 1, SeqLen: 4096, DatasetTokens: 1e6}, Model: llama31_8B},
	} {
		e, err := Compute(w, fast)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if e.HasTime || e.Hours != 0 || !e.NoBandwidth {
			t.Errorf("%s on a GPU without bandwidth: HasTime %v, %.3g h, NoBandwidth %v; want no time", name, e.HasTime, e.Hours, e.NoBandwidth)
		}
		withBW := *fast
		withBW.MemoryBandwidthGBps = 2039
		if e, _ := Compute(w, &withBW); !e.HasTime || e.NoBandwidth {
			t.Errorf("%s with a bandwidth: HasTime %v, NoBandwidth %v; want a time", name, e.HasTime, e.NoBandwidth)
		}
	}
	// A user MFU times FLOPs alone: the bandwidth is not needed.
	mfu := cnn
	mfu.MFU = 0.3
	if e, _ := Compute(mfu, fast); !e.HasTime || e.NoBandwidth {
		t.Errorf("user MFU: HasTime %v, NoBandwidth %v; want a time", e.HasTime, e.NoBandwidth)
	}

	// Ranked by time, the GPU without bandwidth comes after the one with
	// it; with a deadline it is a near miss, not an offer.
	cat := &Catalog{
		GPUs: []GPU{*fast, *testA100},
		Instances: []Instance{
			{Provider: "p", Type: "nobw.1", GPU: "nobw", GPUCount: 1, VCPUs: 64, MemoryGiB: 512, Prices: []RegionPrice{{Region: "r", OnDemandUSD: 1}}},
			{Provider: "p", Type: "a100.1", GPU: testA100.Key, GPUCount: 1, VCPUs: 64, MemoryGiB: 512, Prices: []RegionPrice{{Region: "r", OnDemandUSD: 3}}},
		},
	}
	cat.Index()
	r, err := Recommend(cnn, cat, Query{Sort: SortTime})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Offers) != 2 || r.Offers[0].GPU.Key != testA100.Key || r.Offers[1].HasJob {
		t.Fatalf("by time: %v, want the A100 first and the GPU without bandwidth untimed after it", offerKeys(r))
	}
	r, err = Recommend(cnn, cat, Query{DeadlineHours: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Offers) != 1 || r.Offers[0].GPU.Key != testA100.Key {
		t.Errorf("deadline: %v, want only the A100 (no time cannot meet a deadline)", offerKeys(r))
	}
}

func offerKeys(r Recommendation) []string {
	var s []string
	for _, o := range r.Offers {
		s = append(s, o.GPU.Key)
	}
	return s
}
