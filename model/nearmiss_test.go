package model

import "testing"

// TestKeepNearMiss checks the bounded near-miss list against the order
// worked out by hand: cheapest first, ties by provider then type, at most n.
func TestKeepNearMiss(t *testing.T) {
	in := func(p, typ string) *Instance { return &Instance{Provider: p, Type: typ} }
	xs := []Rejection{
		{Instance: in("aws", "e"), USDPerHour: 5},
		{Instance: in("aws", "c"), USDPerHour: 3},
		{Instance: in("gcp", "i"), USDPerHour: 9},
		{Instance: in("gcp", "a"), USDPerHour: 1},
		{Instance: in("aws", "d"), USDPerHour: 4},
		{Instance: in("aws", "b"), USDPerHour: 3}, // ties aws/c: b first
		{Instance: in("aws", "z"), USDPerHour: 4}, // ties aws/d, beyond n
	}
	checkKept(t, xs, "gcp/a", "aws/b", "aws/c", "aws/d")
}

// TestKeepNearMissNearest: near misses are the nearest to fitting, not the
// cheapest. A limit (price, deadline: nothing short) comes first, then the
// least VRAM short, then price; a host no setting can make run (framework
// support) comes last.
func TestKeepNearMissNearest(t *testing.T) {
	in := func(p, typ string) *Instance { return &Instance{Provider: p, Type: typ} }
	xs := []Rejection{
		{Instance: in("aws", "g4ad.xlarge"), USDPerHour: 0.38, Kind: RejectSoftware}, // cheapest, but ROCm: last
		{Instance: in("aws", "g5g.xlarge"), USDPerHour: 0.42, Kind: RejectVRAM, ShortBytes: 175 * GiB},
		{Instance: in("lambda", "gpu_8x_b200"), USDPerHour: 53.52, Kind: RejectVRAM, ShortBytes: 2 * GiB},
		{Instance: in("nebius", "gpu-b200-8"), USDPerHour: 44.00, Kind: RejectVRAM, ShortBytes: 2 * GiB}, // as near, cheaper
		{Instance: in("aws", "p5.48xlarge"), USDPerHour: 55.04, Kind: RejectDeadline},                    // fits, too slow
	}
	checkKept(t, xs, "aws/p5.48xlarge", "nebius/gpu-b200-8", "lambda/gpu_8x_b200", "aws/g5g.xlarge")
}

// checkKept feeds xs to keepNearMiss, keeping 4, and checks the kept
// PROVIDER/TYPE in order.
func checkKept(t *testing.T, xs []Rejection, want ...string) {
	t.Helper()
	var got []Rejection
	for _, x := range xs {
		got = keepNearMiss(got, x, 4)
	}
	if len(got) != len(want) {
		t.Fatalf("kept %d, want %d", len(got), len(want))
	}
	for i, r := range got {
		if k := r.Instance.Provider + "/" + r.Instance.Type; k != want[i] {
			t.Errorf("near miss %d = %s, want %s", i, k, want[i])
		}
	}
}

// TestRecommendNearMissesSkipUnsupported: a 7B full fine-tune on one GPU
// (about 112 GiB of model states) fits no GPU of the test catalog; its near
// misses are the hosts short of VRAM, the 80 GiB GPU first, and not the
// AMD host PyTorch's ROCm builds do not support, although it is the
// cheapest (new-user trial, M4).
func TestRecommendNearMissesSkipUnsupported(t *testing.T) {
	cat := testCatalog()
	cat.GPUs = append(cat.GPUs, GPU{Key: "v520", Name: "Radeon Pro V520", Vendor: "amd", Architecture: "rdna1", MemoryGiB: 8, FP32TFLOPS: 7, FP16TFLOPS: 14, MemoryBandwidthGBps: 512})
	cat.Instances = append(cat.Instances, Instance{Provider: "p3", Type: "amd.1", GPU: "v520", GPUCount: 1, VCPUs: 4, MemoryGiB: 16,
		Prices: []RegionPrice{{Region: "us-east-1", OnDemandUSD: 0.05}}})
	cat.Index()
	w := Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 512, GPUs: 1}, Model: llama2_7B}
	rec, err := Recommend(w, cat, Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Offers) != 0 || len(rec.Rejected) == 0 {
		t.Fatalf("%d offers, %d near misses: want none and some", len(rec.Offers), len(rec.Rejected))
	}
	if g := rec.Rejected[0].Instance.GPU; g != "g80" {
		t.Errorf("nearest miss on %s (%s), want a g80 host", g, rec.Rejected[0].Reason)
	}
	for i, x := range rec.Rejected {
		if x.Kind == RejectSoftware {
			t.Errorf("near miss %d is %s/%s: %s", i, x.Instance.Provider, x.Instance.Type, x.Reason)
		}
		if i > 0 && x.ShortBytes < rec.Rejected[i-1].ShortBytes {
			t.Errorf("near miss %d short by %.1f GiB after one short by %.1f GiB", i, x.ShortBytes/GiB, rec.Rejected[i-1].ShortBytes/GiB)
		}
	}
}

// TestKeepNearMissGPULimit: with --max-gpus 1 the hosts over the limit
// (none short) come after the 1-GPU hosts short of VRAM, the least short
// first, as the help promises (new-user walk, finding 8: the 1×H100 1.77
// GiB short were missing behind 2-GPU hosts over the limit); the
// framework's misses stay last.
func TestKeepNearMissGPULimit(t *testing.T) {
	in := func(p, typ string) *Instance { return &Instance{Provider: p, Type: typ} }
	xs := []Rejection{
		{Instance: in("shadeform", "massedcompute_H100x2"), USDPerHour: 5.46, Kind: RejectGPULimit},
		{Instance: in("runpod", "4x_RTX4090"), USDPerHour: 2.96, Kind: RejectGPULimit},
		{Instance: in("aws", "g4ad.xlarge"), USDPerHour: 0.38, Kind: RejectSoftware},
		{Instance: in("daytona", "1x-RTX4090"), USDPerHour: 2.20, Kind: RejectVRAM, ShortBytes: 1.7 * GiB},
		{Instance: in("runpod", "1x_RTX4090"), USDPerHour: 0.74, Kind: RejectVRAM, ShortBytes: 1.7 * GiB},
		{Instance: in("verda", "1H100"), USDPerHour: 2.29, Kind: RejectVRAM, ShortBytes: 1.77 * GiB},
		{Instance: in("ovh", "a100-2"), USDPerHour: 9, Kind: RejectNodes},
	}
	checkKept(t, xs, "runpod/1x_RTX4090", "daytona/1x-RTX4090", "verda/1H100", "runpod/4x_RTX4090")
}
