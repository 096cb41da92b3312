package model

import (
	"math"
	"testing"
)

// estimate and recommend time a multi-node job alike (issue 30): the
// same workload on 32 GPUs, 8 per node, over the same network, gives the
// same hours whether Compute times it from the workload's node size and
// network (gpuplan estimate) or matching retimes it over the instance
// type's (gpuplan recommend). Before WorkloadHost, Compute timed the 32
// GPUs as one NVLink domain, the hours of the "none" row.
func TestEstimateAgreesWithRecommendMultiNode(t *testing.T) {
	for _, tt := range []struct {
		name  string
		gbps  float64 // the instance type's network_gbps; 0: unknown (recommend assumes 10)
		given float64 // the estimate's network_gbps; what recommend uses for the type
	}{
		{"3200 Gbps (p5.48xlarge)", 3200, 3200},
		{"100 Gbps", 100, 100},
		{"unknown: 10 Gbps assumed", 0, AssumedNetworkGbps},
	} {
		c := &Catalog{
			GPUs: []GPU{{Key: "h", Name: "H", MemoryGiB: 80, ComputeCapability: "9.0", FP32TFLOPS: 67, TF32TFLOPS: 494,
				FP16TFLOPS: 989, BF16TFLOPS: 989, MemoryBandwidthGBps: 3350, InterconnectGBps: 900}},
			Instances: []Instance{{Provider: "p", Type: "n.8", GPU: "h", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048, Interconnect: "nvswitch",
				NetworkGbps: tt.gbps, Prices: []RegionPrice{{Region: "r", OnDemandUSD: 80}}}},
		}
		c.Index()
		w := Workload{
			Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 4096, GPUs: 32, Strategy: FSDP, Checkpointing: Bool(true), DatasetTokens: 1e9},
			Model:    llama31_8B,
		}
		r, err := Recommend(w, c, Query{AllowMultiNode: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Offers) != 1 || r.Offers[0].GPUs != 32 {
			t.Fatalf("%s: offers %s, rejected %+v", tt.name, offerNames(r), r.Rejected)
		}
		rec := r.Offers[0].JobHours

		est := w
		est.GPUsPerNode, est.NetworkGbps = 8, tt.given
		e, err := Compute(est, &c.GPUs[0])
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(e.Hours-rec) > 1e-9*rec {
			t.Errorf("%s: estimate %.6f h, recommend %.6f h: want the same", tt.name, e.Hours, rec)
		}
		one, _ := Compute(w, &c.GPUs[0]) // no network: one NVLink domain
		if !(one.Hours < rec) {
			t.Errorf("%s: one NVLink domain %.4f h should be faster than over the network, %.4f h", tt.name, one.Hours, rec)
		}
	}
}

// WorkloadHost shares the node network among the node's GPUs as HostOf
// does (Gbps / 8 bits / GPUs per node), only when the job spans nodes.
func TestWorkloadHost(t *testing.T) {
	g := &GPU{InterconnectGBps: 900}
	for _, tt := range []struct {
		name         string
		gpus, per    int
		gbps         float64
		wantPer      int
		wantInter    float64
		wantAssumed  bool
		assumedInput bool
	}{
		{"one node: no network costed", 8, 0, 3200, 8, 0, false, false},
		{"32 GPUs, 3200 Gbps: 3200/8/8 = 50 GB/s", 32, 0, 3200, 8, 50, false, false},
		{"16 GPUs of 4 per node, 400 Gbps: 400/8/4 = 12.5", 16, 4, 400, 4, 12.5, false, false},
		{"no network given: one NVLink domain as before", 32, 0, 0, 8, 0, false, false},
		{"assumed 10 Gbps is flagged", 16, 0, 10, 8, 0.15625, true, true},
		{"2 GPUs on nodes of 4: one node", 2, 4, 3200, 2, 0, false, false},
	} {
		w := Workload{Settings: Settings{GPUs: tt.gpus, GPUsPerNode: tt.per, NetworkGbps: tt.gbps}}
		if tt.assumedInput {
			w.NetworkFrom = NetworkAssumedSource
		}
		h := WorkloadHost(&w, g)
		if h.GPUsPerNode != tt.wantPer || h.InterGBps != tt.wantInter || h.NetworkAssumed != tt.wantAssumed || h.IntraGBps != 450 {
			t.Errorf("%s: %+v, want %d per node, inter %g, assumed %v, intra 450", tt.name, h, tt.wantPer, tt.wantInter, tt.wantAssumed)
		}
	}
}

// FillNetwork takes the median network of the sourced, offered full-node
// instance types of the GPU, else AssumedNetworkGbps, and leaves a given
// figure and one-node jobs alone.
func TestFillNetwork(t *testing.T) {
	inst := func(n int, gbps float64, src string) Instance {
		return Instance{GPU: "h", GPUCount: n, NetworkGbps: gbps, Source: src}
	}
	c := &Catalog{GPUs: []GPU{{Key: "h"}, {Key: "x"}}, Instances: []Instance{
		inst(8, 3200, "s"), inst(8, 3200, "s"), inst(8, 1000, "s"), inst(8, 1600, "s"),
		inst(8, 0, "s"),   // no figure: not counted
		inst(8, 50, ""),   // no source: not counted
		inst(1, 100, "s"), // not a full node
		inst(4, 400, "s"), inst(4, 200, "s"), inst(4, 800, "s"),
		{GPU: "h", GPUCount: 8, NetworkGbps: 10, Source: "s", Retired: "2025-01-01"}, // retired
	}}
	for _, tt := range []struct {
		name      string
		gpu       int // index in c.GPUs
		gpus, per int
		given     float64
		want      float64
		from      NetworkSource
		types     int
	}{
		{"8 per node: median of 1000 1600 3200 3200 = 2400", 0, 32, 0, 0, 2400, NetworkCatalog, 4},
		{"4 per node: median of 200 400 800 = 400", 0, 16, 4, 0, 400, NetworkCatalog, 3},
		{"given stays", 0, 32, 0, 800, 800, NetworkGiven, 0},
		{"one node: nothing", 0, 8, 0, 0, 0, "", 0},
		{"no figure for the GPU: assumed 10", 1, 16, 0, 0, AssumedNetworkGbps, NetworkAssumedSource, 0},
	} {
		w := Workload{Settings: Settings{GPUs: tt.gpus, GPUsPerNode: tt.per, NetworkGbps: tt.given}}
		n := c.FillNetwork(&w, &c.GPUs[tt.gpu])
		if w.NetworkGbps != tt.want || w.NetworkFrom != tt.from || n != tt.types || w.NetworkTypes != tt.types {
			t.Errorf("%s: %g Gbps from %q (%d types), want %g from %q (%d)", tt.name, w.NetworkGbps, w.NetworkFrom, n, tt.want, tt.from, tt.types)
		}
	}
}
