package model

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"
)

// TestFullEstimateSame: the ranking keeps a summary of each estimate
// (estimateResult) and builds the whole Estimate only for the offers that
// carry it. For every estimate a Recommend cached, the Estimate built
// later must be the one made directly (Compute on the GPU count and
// strategy, at the precision the GPU runs, retimed over the timing host
// it is cached under), and the summary must read as that Estimate does:
// so the ranking and every offer are as when each estimate was kept whole.
func TestFullEstimateSame(t *testing.T) {
	cat := testCatalog()
	cat.Instances = append(cat.Instances,
		Instance{Provider: "p1", Type: "big.8-fastnet", GPU: "g16", GPUCount: 8, VCPUs: 96, MemoryGiB: 512, Interconnect: "nvlink", NetworkGbps: 400,
			Prices: []RegionPrice{{Region: "us-east-1", OnDemandUSD: 8.5}}},
		Instance{Provider: "p1", Type: "small.1-lowram", GPU: "g16", GPUCount: 1, VCPUs: 8, MemoryGiB: 0.5,
			Prices: []RegionPrice{{Region: "us-east-1", OnDemandUSD: 0.2}}})
	cat.Index()
	data := small
	data.DatasetTokens = 1e8
	multi := data
	multi.GPUs, multi.Strategy = 16, DDP
	amp := data
	amp.Precision = AMPBF16 // g16 has no bf16: runs amp-fp16
	odd := data
	odd.MicroBatch, odd.GradAccum = 3, 1 // 3 samples: 2 and 4 GPUs cannot share them
	// QLoRA's paged optimizer makes ResidentNeed and ResidentBand differ
	// from the nvidia-smi total and MemoryBand.
	qlora := Workload{Settings: Settings{Task: TaskQLoRA, MicroBatch: 1, SeqLen: 512, DatasetTokens: 1e8, Optimizer: PagedAdamW8bit}, Model: llama2_7B}
	// ZeRO-Offload keeps the optimizer states in host RAM
	// (States.HostOffload), per GPU of the node.
	offload := Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 512, GPUs: 8, Strategy: ZeRO2, DatasetTokens: 1e8, Switches: Switches{OffloadOptimizer: true}}, Model: llama2_7B}
	tf := data
	tf.Framework = TensorFlow
	fsdp := Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 512, GPUs: 16, Strategy: FSDP, DatasetTokens: 1e8}, Model: llama2_7B}
	paged, offloaded, invalid := false, false, false
	for _, c := range []struct {
		name string
		w    Workload
		q    Query
	}{
		{"one GPU", data, Query{}},
		{"auto GPUs", data, Query{AutoGPUs: true}},
		{"auto GPUs, multi-node, deadline", data, Query{AutoGPUs: true, AllowMultiNode: true, DeadlineHours: 0.05}},
		{"16 GPUs over nodes", multi, Query{AllowMultiNode: true}},
		{"precision fallback", amp, Query{AutoGPUs: true, AllowPrecisionFallback: true}},
		{"global batch of 3", odd, Query{AutoGPUs: true, AllowMultiNode: true}},
		{"FSDP over two nodes", fsdp, Query{AllowMultiNode: true}},
		{"QLoRA", qlora, Query{AutoGPUs: true}},
		{"ZeRO-Offload", offload, Query{AllowMultiNode: true}},
		// One GPU runs it as ZeRO-2 too (matcher.oneGPU): single
		// offloads nothing, and Validate refused it.
		{"ZeRO-Offload, auto GPUs", offload, Query{AutoGPUs: true, AllowMultiNode: true}},
		// FSDP, which the auto count tries after DDP, is torch's and
		// JAX's: Validate refuses it for TensorFlow, per layout
		// (matcher.validate answers per count and strategy).
		{"TensorFlow, auto GPUs", tf, Query{AutoGPUs: true, AllowMultiNode: true}},
	} {
		// One scan, and a scan split across two goroutines, whose
		// offers' Estimates are mostly copies of the last ones made
		// (recentEstimates).
		for _, split := range []bool{false, true} {
			var rec Recommendation
			var err error
			withSplit(t, split, func() { rec, err = Recommend(c.w, cat, c.q) })
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			w := rec.estimates.w
			full := map[*Estimate]bool{}
			for k, r := range joinCaches(rec.estimates.cache, rec.estimates.cache2) {
				if r.batch {
					continue
				}
				wn, _ := w.OnGPUs(k.gpus)
				wn.Strategy = k.strategy
				if run, _ := k.gpu.RunPrecision(wn.Precision, wn.Task.Training()); run != wn.Precision {
					wn.Precision = run
				}
				want, werr := Compute(wn, k.gpu)
				if werr == nil && k.host != (Host{}) && k.host != want.Host {
					want.Retime(k.gpu, k.host)
				}
				paged = paged || want.PagedOptimizer > 0
				offloaded = offloaded || want.States.HostOffload > 0
				got := r.fullEstimate(&w)
				full[got] = true
				if !reflect.DeepEqual(*got, want) {
					t.Errorf("%s: %s×%d %s on %+v: the Estimate built later differs from Compute's", c.name, k.gpu.Key, k.gpus, k.strategy, k.host)
				}
				if (werr == nil) != (r.err == nil) || fmt.Sprint(werr) != fmt.Sprint(r.err) {
					t.Errorf("%s: %s×%d: error %v, Compute's %v", c.name, k.gpu.Key, k.gpus, r.err, werr)
				}
				invalid = invalid || werr != nil && !r.batch
				if r.need != want.ResidentNeed() || r.band != want.ResidentBand() || r.host != want.Host ||
					r.hasTime != want.HasTime || r.hours != want.Hours || r.timeBand != want.TimeBand {
					t.Errorf("%s: %s×%d %s: summary %v %v %v %v %v, Estimate %v %v %v %v %v", c.name, k.gpu.Key, k.gpus, k.strategy,
						r.need, r.band, r.hasTime, r.hours, r.timeBand, want.ResidentNeed(), want.ResidentBand(), want.HasTime, want.Hours, want.TimeBand)
				}
				for _, gpus := range []int{1, 2, 4, 8, 16} {
					// NodeHostRAMNeed as it read the whole Estimate.
					procs := gpus
					if want.Workload.GPUs > 0 {
						procs = min(gpus, want.Workload.GPUs)
					}
					node := HostRAMNeed(&want.Workload, want.Params, procs) + want.States.HostOffload*float64(procs)
					if got, want := r.hostRAM.need(gpus), node; got != want {
						t.Errorf("%s: %s×%d: host RAM on %d GPUs %v, NodeHostRAMNeed %v", c.name, k.gpu.Key, k.gpus, gpus, got, want)
					}
				}
				for _, d := range []float64{0, 0.01, 0.05, 1, 1e6} {
					if got, want := r.deadlineVerdict(d), deadlineVerdict(&want, d); got != want {
						t.Errorf("%s: %s×%d: deadline %v: %s, want %s", c.name, k.gpu.Key, k.gpus, d, got, want)
					}
				}
			}
			if len(rec.Offers) == 0 {
				t.Errorf("%s: no offers", c.name)
			}
			for _, o := range rec.Offers {
				if !full[o.Estimate] {
					t.Errorf("%s: %s/%s's Estimate is not its cached estimate's", c.name, o.Instance.Type, o.Region)
				}
			}
		}
	}
	if !paged {
		t.Error("no estimate with a paged optimizer: the test does not tell ResidentNeed from the total")
	}
	if !invalid {
		t.Error("no estimate Validate refuses: the test does not compare the errors")
	}
	if !offloaded {
		t.Error("no estimate offloading to host RAM: the test does not check it in the host RAM need")
	}
}

// joinCaches is the estimates of a Recommend's one scan, or both
// goroutines' of a split one.
func joinCaches(a, b map[estimateKey]*estimateResult) map[estimateKey]*estimateResult {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}

// TestNodeNetworksSame: the ranking's node networks, gathered in one pass
// (Catalog.nodeNetworks), give NodeNetwork's median and count for every
// GPU and node size, types without a source, retired or without a figure
// left out alike.
func TestNodeNetworksSame(t *testing.T) {
	cat := testCatalog()
	add := func(typ, gpu string, count int, gbps float64, source, retired string) {
		cat.Instances = append(cat.Instances, Instance{Provider: "p3", Type: typ, GPU: gpu, GPUCount: count, VCPUs: 8, MemoryGiB: 64,
			NetworkGbps: gbps, Source: source, Retired: retired, Prices: []RegionPrice{{Region: "us-east-1", OnDemandUSD: 1}}})
	}
	add("a", "g80", 8, 3200, "s", "")
	add("b", "g80", 8, 1000, "s", "")
	add("c", "g80", 8, 400, "s", "")
	add("d", "g80", 8, 100, "", "")           // no source
	add("e", "g80", 8, 50, "s", "2025-01-01") // retired
	add("f", "g80", 4, 200, "s", "")
	add("g", "g80", 4, 800, "s", "")
	add("h", "g16", 1, 25, "s", "")
	cat.Index()
	groups := cat.nodeNetworks()
	seen := 0
	for i := range cat.GPUs {
		g := &cat.GPUs[i]
		for _, per := range []int{1, 2, 4, 8, 16} {
			wantGbps, wantN := cat.NodeNetwork(g, per)
			gbps, n := medianNetwork(groups[nodeNetKey{g.Key, per}])
			if gbps != wantGbps || n != wantN {
				t.Errorf("%s×%d: %v Gbps of %d types, NodeNetwork %v of %d", g.Key, per, gbps, n, wantGbps, wantN)
			}
			seen += n
		}
	}
	if got, want := groups[nodeNetKey{"g80", 8}], []float64{400, 1000, 3200}; !slices.Equal(got, want) {
		t.Errorf("g80×8 figures %v, want %v", got, want)
	}
	if seen != 6 {
		t.Errorf("%d types with a network counted, want 6", seen)
	}
}
