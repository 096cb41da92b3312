package model

import (
	"fmt"
	"testing"
)

// TestPickLayout: the rule on verdicts given by hand, in the order the
// layouts are tried (DDP, then FSDP): the first that fits across its
// band, else the first borderline, else none (-1, the last tried
// returned); nothing is tried past the first that fits; the first
// layout's verdict is returned as why it gave way.
func TestPickLayout(t *testing.T) {
	const (
		fits = VerdictFits
		bord = VerdictBorderline
		no   = VerdictNoFit
	)
	for _, c := range []struct {
		verdicts []FitVerdict
		want     int // index picked, -1 for none
		tries    int // layouts tried
	}{
		{[]FitVerdict{fits, fits}, 0, 1}, // DDP fits: FSDP is not estimated
		{[]FitVerdict{bord, fits}, 1, 2}, // DDP borderline, FSDP fits across: FSDP (estlayout, walk47)
		{[]FitVerdict{no, fits}, 1, 2},   // DDP does not fit: FSDP
		{[]FitVerdict{no, bord}, 1, 2},   // FSDP borderline is the first that fits at the estimate
		{[]FitVerdict{bord, bord}, 0, 2}, // none fits across: DDP kept
		{[]FitVerdict{bord, no}, 0, 2},   // FSDP does not fit (host RAM, a deadline): DDP kept
		{[]FitVerdict{no, no}, -1, 2},    // none: the last tried says why
		{[]FitVerdict{bord}, 0, 1},       // one layout (a strategy named, one GPU): kept when borderline
		{[]FitVerdict{no}, -1, 1},
		{[]FitVerdict{no, bord, fits}, 2, 3}, // more layouts: the same rule
		{[]FitVerdict{bord, no, bord}, 0, 3},
		{[]FitVerdict{no, no, bord}, 2, 3},
		{[]FitVerdict{fits, bord, fits}, 0, 1},
	} {
		tries := 0
		l, at, first := pickLayout(len(c.verdicts), func(i int) (int, FitVerdict) {
			tries++
			return i, c.verdicts[i]
		})
		wantL := c.want
		if c.want < 0 {
			wantL = len(c.verdicts) - 1
		}
		if at != c.want || l != wantL || tries != c.tries || first != c.verdicts[0] {
			t.Errorf("%v: picked %d (layout %d) after %d tries, the first %q; want %d (layout %d) after %d, %q", c.verdicts, at, l, tries, first, c.want, wantL, c.tries, c.verdicts[0])
		}
	}
}

// TestOpenLayoutAsRecommend: estimate's layout for a job on a fixed count
// of one GPU (OpenLayout) is the one recommend takes on an instance type
// of that GPU, with --gpus N (OnInstance, a fixed count) and without
// (auto, on a type of N GPUs: the same count), at the same memory need,
// saying alike why DDP gave way (Offer.Replaced, Layout.Replaced).
// Llama 3.1 8B at 1 × 4096, accumulation 4, on the test catalog's G16
// (15.20 GiB usable: 16 GiB less the 5% margin) and G40 (38.00 GiB):

//   - QLoRA on 4 G16: DDP 14.47 GiB ≤ 15.20 but its band reaches 18.16:
//     borderline; FSDP over 4 needs 11.29, band top 14.17 ≤ 15.20: fits,
//     so FSDP (estlayout: estimate said DDP "~ borderline, about 10%"
//     where recommend ranked FSDP at 11.29 GiB first). On 8: FSDP 10.60.
//   - QLoRA on 2 G16: DDP borderline as above; FSDP over 2 needs 12.67,
//     band top 15.90 > 15.20: borderline too, so DDP is kept. Before
//     shape's two branches took one rule, recommend without --gpus took
//     FSDP there (the last layout tried, borderline), with --gpus 2 DDP.
//   - QLoRA on 2 G40: DDP's band top 18.16 ≤ 38.00: DDP, FSDP untried.
//   - LoRA on 8 G40: DDP 47.10 > 38.00; FSDP 36.58, band top about 45.9:
//     borderline, the first that fits at the estimate: FSDP.
//   - LoRA on 8 G16: DDP 47.10, FSDP 36.58, both past 15.20: DDP kept,
//     FSDP's need said; recommend rejects the type for memory.
func TestOpenLayoutAsRecommend(t *testing.T) {
	cat := testCatalog()
	cat.Instances = append(cat.Instances,
		Instance{Provider: "p1", Type: "duo.2", GPU: "g16", GPUCount: 2, VCPUs: 16, MemoryGiB: 128, Interconnect: "pcie",
			Prices: []RegionPrice{{Region: "us-east-1", OnDemandUSD: 2}}},
		Instance{Provider: "p1", Type: "mid.8", GPU: "g40", GPUCount: 8, VCPUs: 96, MemoryGiB: 680, Interconnect: "nvlink",
			Prices: []RegionPrice{{Region: "us-east-1", OnDemandUSD: 24}}})
	cat.Index()
	byType := map[string]*Instance{}
	for i := range cat.Instances {
		byType[cat.Instances[i].Type] = &cat.Instances[i]
	}
	for _, c := range []struct {
		task     Task
		gpus     int
		in       string // an instance type of the GPU
		strategy Strategy
		need     string // GiB per GPU of the layout taken, as estimate prints it
		replaced FitVerdict
		tried    string // FSDP's need when tried and not taken; "" when not
	}{
		{TaskQLoRA, 4, "big.8", FSDP, "11.29", VerdictBorderline, ""},
		{TaskQLoRA, 8, "big.8", FSDP, "10.60", VerdictBorderline, ""},
		{TaskQLoRA, 2, "duo.2", DDP, "14.47", "", "12.67"},
		{TaskQLoRA, 2, "mid.2", DDP, "14.47", "", ""},
		{TaskLoRA, 8, "mid.8", FSDP, "36.58", VerdictNoFit, ""},
		{TaskLoRA, 8, "big.8", DDP, "47.10", "", "36.58"},
	} {
		name := fmt.Sprintf("%s on %d × %s", c.task, c.gpus, c.in)
		in := byType[c.in]
		g, err := cat.GPU(in.GPU)
		if err != nil {
			t.Fatal(err)
		}
		w := Workload{Model: llama31_8B, Settings: Settings{Task: c.task, GPUs: c.gpus, SeqLen: 4096, MicroBatch: 1, GradAccum: 4, DatasetTokens: 2e7}}
		e, err := Compute(w, g)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		l := OpenLayout(w, e, g)
		tried := ""
		if l.Tried != nil {
			tried = fmt.Sprintf("%.2f", l.Tried.ResidentNeed()/GiB)
		}
		if s, need := l.Estimate.Workload.Strategy, fmt.Sprintf("%.2f", l.Estimate.ResidentNeed()/GiB); s != c.strategy || need != c.need || l.Replaced != c.replaced || tried != c.tried {
			t.Errorf("%s: %s at %s GiB, replaced %q, FSDP tried %q; want %s at %s, %q, %q", name, s, need, l.Replaced, tried, c.strategy, c.need, c.replaced, c.tried)
		}
		// recommend on the type: --gpus N, and auto GPUs where the type
		// has N (its fewest whole instances).
		queries := []Query{{}}
		if in.GPUCount == c.gpus {
			queries = append(queries, Query{AutoGPUs: true})
		}
		for _, q := range queries {
			o, kind, why, err := OnInstance(w, cat, in, "us-east-1", 1, q)
			switch {
			case err != nil:
				t.Fatalf("%s: %v", name, err)
			case l.Estimate.ResidentNeed() > UsableBytes(g):
				if kind != RejectVRAM {
					t.Errorf("%s, auto %v: recommend %q %v; want a memory rejection, as estimate's layout does not fit", name, q.AutoGPUs, kind, why)
				}
			case !why.IsZero() || o.GPUs != c.gpus || o.Strategy != l.Estimate.Workload.Strategy || !near(o.NeedBytes, l.Estimate.ResidentNeed(), 1e-9) || o.Replaced != l.Replaced:
				t.Errorf("%s, auto %v: recommend %v, %d GPUs %s at %.2f GiB, replaced %q; estimate %s at %.2f, %q", name, q.AutoGPUs, why, o.GPUs, o.Strategy, o.NeedBytes/GiB, o.Replaced,
					l.Estimate.Workload.Strategy, l.Estimate.ResidentNeed()/GiB, l.Replaced)
			}
		}
	}
}

// TestOpenLayoutKeeps: the rule does not apply, and e is kept untried,
// to a strategy named other than DDP, a job on one GPU, inference, and
// no GPU (estimate without --gpu).
func TestOpenLayoutKeeps(t *testing.T) {
	cat := testCatalog()
	g16, _ := cat.GPU("g16")
	qlora := Workload{Model: llama31_8B, Settings: Settings{Task: TaskQLoRA, GPUs: 4, SeqLen: 4096, MicroBatch: 1, GradAccum: 4}}
	zero2, one, serve := qlora, qlora, Workload{Model: llama31_8B, Settings: Settings{Task: TaskInference, GPUs: 4, ContextLen: 4096, Sequences: 64}}
	zero2.Strategy, one.GPUs = ZeRO2, 1
	for _, c := range []struct {
		name string
		w    Workload
		g    *GPU
	}{{"zero2", zero2, g16}, {"one GPU", one, g16}, {"inference", serve, g16}, {"no GPU", qlora, nil}} {
		e, err := Compute(c.w, c.g)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if l := OpenLayout(c.w, e, c.g); l.Estimate.Workload.Strategy != e.Workload.Strategy || l.Replaced != "" || l.Tried != nil || l.TriedErr != nil {
			t.Errorf("%s: %s, replaced %q, tried %v %v; want %s kept, nothing tried", c.name, l.Estimate.Workload.Strategy, l.Replaced, l.Tried != nil, l.TriedErr, e.Workload.Strategy)
		}
	}
}
