package model

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Query.InstanceType matches one named type in the whole catalog
// (gpuplan export --instance, exportnet): the type is priced even when a
// cheaper host of its provider, region and GPU would stand for it in a
// ranking, and a type without a network figure is timed across nodes at
// the median of the catalog's types of its GPU and node size, 2400 Gbps
// = (3200 + 1600) / 2 here, as in the full ranking; the 1-GPU type's 100
// Gbps is another node size. A catalog cut down to the type had no such
// figure: 10 Gbps assumed.
func TestRecommendInstanceType(t *testing.T) {
	c := &Catalog{
		GPUs: []GPU{{Key: "h", Name: "H", MemoryGiB: 80, ComputeCapability: "9.0", FP32TFLOPS: 67, TF32TFLOPS: 494,
			FP16TFLOPS: 989, BF16TFLOPS: 989, MemoryBandwidthGBps: 3350, InterconnectGBps: 900}},
		Instances: []Instance{
			{Provider: "p", Type: "none.8", GPU: "h", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048, Interconnect: "nvswitch", Fabric: "infiniband",
				Source: "s", Prices: []RegionPrice{{Region: "r", OnDemandUSD: 80}}},
			{Provider: "s", Type: "bare.8", GPU: "h", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048, Interconnect: "nvswitch",
				Source: "s", Prices: []RegionPrice{{Region: "r", OnDemandUSD: 40}}},
			{Provider: "p", Type: "fast.8", GPU: "h", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048, Interconnect: "nvswitch", NetworkGbps: 3200,
				Source: "s", Prices: []RegionPrice{{Region: "r", OnDemandUSD: 60}}},
			{Provider: "q", Type: "mid.8", GPU: "h", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048, Interconnect: "nvswitch", NetworkGbps: 1600,
				Source: "s", Prices: []RegionPrice{{Region: "r", OnDemandUSD: 70}}},
			{Provider: "q", Type: "one.1", GPU: "h", GPUCount: 1, VCPUs: 24, MemoryGiB: 256, NetworkGbps: 100,
				Source: "s", Prices: []RegionPrice{{Region: "r", OnDemandUSD: 9}}},
		},
	}
	c.Index()
	w := Workload{
		Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 4096, GPUs: 32, Strategy: FSDP, Checkpointing: Bool(true), DatasetTokens: 1e9},
		Model:    llama31_8B,
	}
	for _, tt := range []struct {
		name  string
		q     Query
		types []string // the offers' types, in order
		gbps  float64  // the network the first offer is timed at, per node
		from  NetworkSource
		err   error
	}{
		{name: "p's ranking keeps its cheaper host fast.8 at its own 3200 Gbps", q: Query{Providers: []string{"p"}},
			types: []string{"fast.8"}, gbps: 3200},
		{name: "none.8 named, InfiniBand without a figure: at the catalog's 8-GPU median (3200 + 1600) / 2 = 2400 Gbps", q: Query{Providers: []string{"p"}, InstanceType: "none.8"},
			types: []string{"none.8"}, gbps: 2400, from: NetworkCatalog},
		{name: "bare.8 named, neither a figure nor a fabric: at the assumed 10 Gbps, not the median", q: Query{InstanceType: "bare.8"},
			types: []string{"bare.8"}, gbps: AssumedNetworkGbps, from: NetworkNoFabric},
		{name: "mid.8 named, any provider: its own 1600 Gbps", q: Query{InstanceType: "mid.8"},
			types: []string{"mid.8"}, gbps: 1600},
		{name: "an unknown type is no offer", q: Query{InstanceType: "gone.8"}, err: ErrNoOffers},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.q.AllowMultiNode = true
			r, err := Recommend(w, c, tt.q)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Recommend() error %v, want %v", err, tt.err)
			}
			if err != nil {
				if !strings.Contains(err.Error(), "instance type "+tt.q.InstanceType) {
					t.Errorf("Recommend() error %q does not name instance type %s", err, tt.q.InstanceType)
				}
				return
			}
			var types []string
			for i := range r.Offers {
				types = append(types, r.Offers[i].Instance.Type)
			}
			if strings.Join(types, ",") != strings.Join(tt.types, ",") {
				t.Fatalf("offers %v, want %v", types, tt.types)
			}
			h := r.Offers[0].Estimate.Host
			if got := h.InterGBps * 8 * float64(h.GPUsPerNode); got != tt.gbps || h.NetworkFrom != tt.from {
				t.Errorf("timed at %g Gbps per node from %q, want %g from %q", got, h.NetworkFrom, tt.gbps, tt.from)
			}
			// The hours estimate gives at that network (the one rule,
			// Catalog.DefaultNetwork; TestEstimateAgreesWithRecommendMultiNode).
			if tt.from != NetworkCatalog && tt.from != NetworkNoFabric {
				return
			}
			ww := w
			ww.GPUsPerNode, ww.NetworkGbps = 8, tt.gbps
			e, err := Compute(ww, &c.GPUs[0])
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Offers[0].JobHours; math.Abs(got-e.Hours) > 1e-9*e.Hours {
				t.Errorf("JobHours = %.6g h, want estimate's %.6g h at %g Gbps", got, e.Hours, tt.gbps)
			}
		})
	}
}
