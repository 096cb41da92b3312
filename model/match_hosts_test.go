package model

import (
	"strings"
	"testing"
)

// nebiusLike is issue 30's case on a fixed catalog: one provider and
// region, an H100-class GPU as a 1-GPU type without a network figure at
// $2.95/h and as an 8-GPU NVSwitch type at $23.60/h (the same $2.95 per
// GPU-hour, Nebius eu-north1 on-demand) with net Gbps (0: none).
func nebiusLike(oneGPU float64, net float64) *Catalog {
	c := &Catalog{
		GPUs: []GPU{{Key: "h", Name: "H", MemoryGiB: 80, ComputeCapability: "9.0", FP32TFLOPS: 67, TF32TFLOPS: 494,
			FP16TFLOPS: 989, BF16TFLOPS: 989, MemoryBandwidthGBps: 3350, InterconnectGBps: 900}},
		Instances: []Instance{
			{Provider: "n", Type: "h_1gpu", GPU: "h", GPUCount: 1, VCPUs: 16, MemoryGiB: 200,
				Prices: []RegionPrice{{Region: "r", OnDemandUSD: oneGPU}}},
			{Provider: "n", Type: "h_8gpu", GPU: "h", GPUCount: 8, VCPUs: 128, MemoryGiB: 1600, Interconnect: "nvswitch", NetworkGbps: net,
				Prices: []RegionPrice{{Region: "r", OnDemandUSD: 23.6}}},
		},
	}
	c.Index()
	return c
}

func nebiusJob(dataset float64) Workload {
	return Workload{
		Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 4096, GPUs: 32, Strategy: FSDP, Checkpointing: Bool(true), DatasetTokens: dataset},
		Model:    llama31_8B,
	}
}

// TestGroupKeepsTheFasterDeployment: of the hosts of one provider,
// region and GPU the group keeps the one the job does best on, not the
// cheaper per hour: 32 GPUs as four 8-GPU NVSwitch nodes at 3200 Gbps
// beat thirty-two 1-GPU nodes timed at the assumed 10 Gbps, on every
// sort key, also when the 1-GPU type is the cheaper per GPU-hour
// ($2.90 against $2.95) and when the job has no dataset (price sort).
// Before, the price sort kept h_1gpu (equal price, name first; or
// cheaper), and the job sort kept it as the 8-GPU type had no
// network figure either (10 Gbps shared by 8 GPUs).
func TestGroupKeepsTheFasterDeployment(t *testing.T) {
	for _, tt := range []struct {
		name    string
		oneGPU  float64
		dataset float64
		sort    SortKey
	}{
		{"same price per GPU, job sort", 2.95, 2e8, SortJob},
		{"same price per GPU, price sort", 2.95, 2e8, SortPrice},
		{"same price per GPU, no dataset", 2.95, 0, SortPrice},
		{"1-GPU cheaper per GPU-hour, price sort", 2.90, 2e8, SortPrice},
		{"1-GPU cheaper per GPU-hour, monthly sort", 2.90, 0, SortMonthly},
		{"same price per GPU, time sort", 2.95, 2e8, SortTime},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Recommend(nebiusJob(tt.dataset), nebiusLike(tt.oneGPU, 3200), Query{AllowMultiNode: true, Sort: tt.sort})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Offers) != 1 || r.Offers[0].Instance.Type != "h_8gpu" || r.Offers[0].Instances != 4 {
				t.Fatalf("offers %s: want h_8gpu (4 nodes) alone", offerNames(r))
			}
			if r.Considered != 2 {
				t.Errorf("considered %d, want 2 (h_1gpu left out as the group's other host)", r.Considered)
			}
		})
	}
}

// TestGroupSingleNodeByPrice: hosts that each run the job on one node
// are still kept by the sort key alone (the cheaper host of a 1-GPU job),
// as before.
func TestGroupSingleNodeByPrice(t *testing.T) {
	w := nebiusJob(0)
	w.GPUs, w.Strategy = 1, Single
	w.Model = llama31_8B
	w.Task = TaskInference
	r, err := Recommend(w, nebiusLike(2.95, 3200), Query{Sort: SortPrice})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Offers) != 1 || r.Offers[0].Instance.Type != "h_1gpu" {
		t.Fatalf("offers %s: want h_1gpu alone (the 1-GPU host, $2.95/h)", offerNames(r))
	}
}

// TestDeadlineOnAssumedNetworkNotSilent: a host dropped for the deadline
// when its time rests on the assumed 10 Gbps network (no network figure
// for the type, none in the catalog for its GPU either) is a near miss,
// listed first, whose reason says so.
func TestDeadlineOnAssumedNetworkNotSilent(t *testing.T) {
	c := nebiusLike(2.95, 0)
	r, err := Recommend(nebiusJob(2e9), c, Query{AllowMultiNode: true, DeadlineHours: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Offers) != 0 {
		t.Fatalf("offers %s: want none within 1 h", offerNames(r))
	}
	if len(r.Rejected) == 0 {
		t.Fatal("no near misses: the deadline misses were dropped silently")
	}
	for _, x := range r.Rejected {
		want := "; the catalog has no network figure for " + x.Instance.Type + "; timed at 10 Gbps per node, the slowest the catalog documents, as no InfiniBand, EFA or RDMA between its instances is documented either"
		if x.Kind != RejectDeadline || !x.NetworkAssumed || !strings.Contains(x.Reason, want) {
			t.Errorf("%s: kind %q assumed %v reason %q, want a deadline miss ending %q", x.Instance.Type, x.Kind, x.NetworkAssumed, x.Reason, want)
		}
	}
	// With the figure, the 8-GPU type's miss is the host's own: no note.
	c = nebiusLike(2.95, 3200)
	r, err = Recommend(nebiusJob(2e9), c, Query{AllowMultiNode: true, DeadlineHours: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range r.Rejected {
		if x.Instance.Type == "h_8gpu" && (x.NetworkAssumed || strings.Contains(x.Reason, "assumed")) {
			t.Errorf("h_8gpu at 3200 Gbps: %q, want no assumed-network note", x.Reason)
		}
	}
	if len(r.Rejected) > 0 && r.Rejected[0].Instance.Type != "h_1gpu" {
		t.Errorf("near misses %v: want h_1gpu (assumed network) first", r.Rejected)
	}
}

// TestAssumedNetworkMissRanksFirst: among near misses a deadline miss on
// an assumed network comes before a VRAM miss of no shortfall and a
// cheaper host-RAM miss.
func TestAssumedNetworkMissRanksFirst(t *testing.T) {
	in := func(typ string) *Instance { return &Instance{Provider: "p", Type: typ} }
	var kept []Rejection
	for _, x := range []Rejection{
		{Instance: in("ram"), USDPerHour: 1, Kind: RejectHostRAM},
		{Instance: in("late"), USDPerHour: 50, Kind: RejectDeadline},
		{Instance: in("assumed"), USDPerHour: 90, Kind: RejectDeadline, NetworkAssumed: true},
	} {
		kept = keepNearMiss(kept, x, 2)
	}
	if len(kept) != 2 || kept[0].Instance.Type != "assumed" || kept[1].Instance.Type != "ram" {
		t.Errorf("kept %v, want assumed then ram", kept)
	}
}

// TestCheapestOnlyKeepsTheGroupedFirst: a savings eval (cheapestOnly)
// picks the offer Recommend ranks first also when a host group keeps a
// dearer-per-hour multi-node deployment (lessHost): h_1gpu is the least
// offer by price alone, but Recommend lists h_8gpu.
func TestCheapestOnlyKeepsTheGroupedFirst(t *testing.T) {
	c := nebiusLike(2.90, 3200)
	for _, k := range []SortKey{SortPrice, SortMonthly, SortJob} {
		q := Query{AllowMultiNode: true, Sort: k}
		full, err := Recommend(nebiusJob(2e8), c, q)
		if err != nil {
			t.Fatal(err)
		}
		short, err := recommendShared(nebiusJob(2e8), c, q, &sharedEstimates{cheapestOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(short.Offers) != 1 || short.Offers[0].Instance.Type != full.Offers[0].Instance.Type || full.Offers[0].Instance.Type != "h_8gpu" {
			t.Errorf("sort %s: short path %s, Recommend %s; want h_8gpu both", k, offerNames(short), offerNames(full))
		}
	}
}
