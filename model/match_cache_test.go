package model

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestRecommendCachesMatchDirectEstimate checks the matcher's caches
// (shape per GPU and host, one retime per timing host, the default host
// reused) against the uncached computation: for every offer, Compute on
// its GPU count and strategy, retimed over HostOf of the offer's own
// instance, must give the same hours and memory. The catalog holds
// instance types that differ only in vCPUs, network and host RAM, single-
// and multi-node deployments, so a cache keyed too coarsely shows here.
func TestRecommendCachesMatchDirectEstimate(t *testing.T) {
	cat := testCatalog()
	// Twins of big.8 and small.1 that differ in what the caches key on.
	cat.Instances = append(cat.Instances,
		Instance{Provider: "p1", Type: "big.8-fastnet", GPU: "g16", GPUCount: 8, VCPUs: 96, MemoryGiB: 512, Interconnect: "nvlink", NetworkGbps: 400,
			Prices: []RegionPrice{{Region: "us-east-1", OnDemandUSD: 8.5}}},
		Instance{Provider: "p1", Type: "small.1-net", GPU: "g16", GPUCount: 1, VCPUs: 4, MemoryGiB: 64, Interconnect: "pcie", NetworkGbps: 25,
			Prices: []RegionPrice{{Region: "eu-west-1", OnDemandUSD: 0.95}}},
		Instance{Provider: "p1", Type: "small.1-lowram", GPU: "g16", GPUCount: 1, VCPUs: 8, MemoryGiB: 0.5,
			Prices: []RegionPrice{{Region: "us-east-1", OnDemandUSD: 0.2}}},
		Instance{Provider: "p2", Type: "huge.8-fastnet", GPU: "g80", GPUCount: 8, VCPUs: 192, MemoryGiB: 2048, Interconnect: "nvswitch", NetworkGbps: 3200,
			Prices: []RegionPrice{{Region: "eu-west-1", OnDemandUSD: 85}}}, // not us-east-1: one offer per provider, region and GPU
	)
	for i := range cat.GPUs {
		if cat.GPUs[i].Key == "g80" {
			cat.GPUs[i].InterconnectGBps = 900 // NVLink 4 (H100 SXM datasheet); the test GPU has none, so no collectives are timed
		}
	}
	cat.Index()
	multi := small
	multi.GPUs, multi.Strategy, multi.DatasetTokens = 16, DDP, 1e8
	auto := small
	auto.DatasetTokens = 1e8
	// FSDP of a 7B model over two 8-GPU nodes: the collectives are
	// exposed, so the node network (10 Gbps assumed vs 3200 Gbps) shows
	// in the hours.
	fsdp := Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 512, GPUs: 16, Strategy: FSDP, DatasetTokens: 1e8}, Model: llama2_7B}
	for _, c := range []struct {
		name string
		w    Workload
		q    Query
	}{
		{"16 GPUs over nodes", multi, Query{AllowMultiNode: true}},
		{"auto GPU count", auto, Query{AutoGPUs: true}},
		{"auto, multi-node allowed", auto, Query{AutoGPUs: true, AllowMultiNode: true}},
		{"FSDP over two nodes", fsdp, Query{AllowMultiNode: true, Providers: []string{"p2"}}},
	} {
		r, err := Recommend(c.w, cat, c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(r.Offers) == 0 {
			t.Fatalf("%s: no offers", c.name)
		}
		hours := map[string]float64{}
		for _, o := range r.Offers {
			hours[o.Instance.Type] = o.Estimate.Hours
			w := o.Estimate.Workload // defaults applied, GPUs and strategy as deployed
			e, err := Compute(w, o.GPU)
			if err != nil {
				t.Fatalf("%s: %s: %v", c.name, o.Instance.Type, err)
			}
			e.Retime(o.GPU, HostOf(o.Instance, o.GPU))
			if e.Hours != o.Estimate.Hours || e.Memory.Total() != o.Estimate.Memory.Total() || e.CommSeconds != o.Estimate.CommSeconds {
				t.Errorf("%s: %s on %d GPUs: cached %.6g h, %.6g B, comm %.3g s; direct %.6g h, %.6g B, comm %.3g s",
					c.name, o.Instance.Type, o.GPUs, o.Estimate.Hours, o.Estimate.Memory.Total(), o.Estimate.CommSeconds, e.Hours, e.Memory.Total(), e.CommSeconds)
			}
		}
		if c.name == "FSDP over two nodes" && !(hours["huge.8"] > hours["huge.8-fastnet"] && hours["huge.8-fastnet"] > 0) {
			t.Errorf("%s: huge.8 (network assumed 10 Gbps) %.4g h, huge.8-fastnet (3200 Gbps) %.4g h; want the slow network slower", c.name, hours["huge.8"], hours["huge.8-fastnet"])
		}
		// Near misses keep their own reasons: the low-RAM twin is refused
		// for host RAM, not given small.1's verdict.
		if c.name != "FSDP over two nodes" {
			if _, ok := hours["small.1-lowram"]; ok {
				t.Errorf("%s: small.1-lowram (0.5 GiB host RAM) offered", c.name)
			}
			found := false
			for _, x := range r.Rejected {
				if x.Instance.Type == "small.1-lowram" {
					found = true
					if x.Kind != RejectHostRAM {
						t.Errorf("%s: small.1-lowram rejected as %s (%s), want host RAM", c.name, x.Kind, x.Reason)
					}
				}
			}
			if !found {
				t.Errorf("%s: small.1-lowram (the cheapest miss) not among the near misses %+v", c.name, r.Rejected)
			}
		}
	}
}

// TestCheapestOnlyIsFirstOffer: the savings evals' short path (one best
// offer kept, no groups, no sort) picks the very offer Recommend ranks
// first, field for field, under each sort key and pricing mode.
func TestCheapestOnlyIsFirstOffer(t *testing.T) {
	cat := testCatalog()
	type scenario struct {
		Workload Workload
		Query    Query
	}
	base := scenario{Workload: Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 512, DatasetTokens: 1e8}, Model: llama2_7B},
		Query: Query{AutoGPUs: true, AllowMultiNode: true}}
	scenarios := []scenario{base}
	// The changes a savings ranking tries on base (advice.ScenarioChanges):
	// each pricing mode, GPU type and region, 8-bit states, checkpointing.
	change := func(f func(*scenario)) { s := base; f(&s); scenarios = append(scenarios, s) }
	for _, p := range PricingModes {
		change(func(s *scenario) { s.Query.Pricing = p })
	}
	for _, g := range []string{"g16", "g40", "g80"} {
		change(func(s *scenario) { s.Query.GPUs = []string{g} })
	}
	for _, r := range []string{"us-east-1", "eu-west-1"} {
		change(func(s *scenario) { s.Query.Regions = []string{r} })
	}
	change(func(s *scenario) { s.Workload.Optimizer = AdamW8bit })
	change(func(s *scenario) { s.Workload.Checkpointing = Bool(true) })
	noData := base
	noData.Workload.DatasetTokens = 0 // ranks by hourly price
	scenarios = append(scenarios, noData)
	compared := 0
	for i, s := range scenarios {
		for _, sort := range append([]SortKey{""}, SortKeys...) {
			q := s.Query
			q.Sort = sort
			full, err := Recommend(s.Workload, cat, q)
			short, errShort := recommendShared(s.Workload, cat, q, &sharedEstimates{cheapestOnly: true})
			if (err == nil) != (errShort == nil) {
				t.Fatalf("scenario %d sort %q: errors differ: %v / %v", i, sort, err, errShort)
			}
			if err != nil || len(full.Offers) == 0 {
				if len(short.Offers) != 0 {
					t.Errorf("scenario %d sort %q: short path offers %d, full none", i, sort, len(short.Offers))
				}
				continue
			}
			if len(short.Offers) != 1 {
				t.Fatalf("scenario %d sort %q: short path kept %d offers, want 1", i, sort, len(short.Offers))
			}
			if !reflect.DeepEqual(short.Offers[0], full.Offers[0]) {
				t.Errorf("scenario %d sort %q: short path picked %s/%s/%s, Recommend ranks %s/%s/%s first", i, sort,
					short.Offers[0].Instance.Provider, short.Offers[0].Instance.Type, short.Offers[0].Region,
					full.Offers[0].Instance.Provider, full.Offers[0].Instance.Type, full.Offers[0].Region)
			}
			compared++
		}
	}
	if compared < len(scenarios) {
		t.Errorf("only %d comparisons over %d scenarios: the test compares too little", compared, len(scenarios))
	}
}

// TestSortOffersMatchesSort: sorting indexes by keys worked out once and
// moving each offer once along the permutation gives the order a plain
// sort of the values by compareOffers does, for shuffled lists of every
// length up to 40 and every sort key, with risky, late, oversized and
// untimed offers among them.
func TestSortOffersMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	in, in8 := &Instance{Provider: "p", Type: "t"}, &Instance{Provider: "p", Type: "t8", GPUCount: 8}
	for n := range 41 {
		for _, k := range SortKeys {
			offers := make([]Offer, n)
			for i := range offers {
				// Few distinct prices: ties fall through to the region.
				offers[i] = Offer{Instance: in, Region: fmt.Sprintf("r%03d", i), USDPerHour: float64(r.IntN(5)), JobUSD: float64(r.IntN(5)),
					MonthlyUSD: float64(r.IntN(5)), JobHours: float64(r.IntN(5)), HeadroomPct: float64(r.IntN(3)), HasJob: r.IntN(4) > 0}
				// The keys before the sort value (risky, late) and the
				// slack of an oversized host, each in some offers.
				if r.IntN(4) == 0 {
					offers[i].Verdict, offers[i].OOMChance = VerdictBorderline, []float64{0.05, 0.4}[r.IntN(2)]
				}
				if r.IntN(4) == 0 {
					offers[i].LateChance = 0.3
				}
				if r.IntN(4) == 0 {
					offers[i].Instance, offers[i].Instances, offers[i].GPUs, offers[i].SizedGPUs = in8, 1, 8, 4
				}
			}
			r.Shuffle(n, func(i, j int) { offers[i], offers[j] = offers[j], offers[i] })
			want := slices.Clone(offers)
			slices.SortFunc(want, func(a, b Offer) int { return compareOffers(&a, &b, k) })
			sortOffers(offers, k)
			if !reflect.DeepEqual(offers, want) {
				t.Fatalf("n=%d sort %s: sortOffers order differs from a plain sort", n, k)
			}
		}
	}
}

// TestSavingsStartsFromRecommend: a Recommendation's finder (the
// savings ranking's, advice.Savings) starts from the estimates of the
// Recommend it is given (its first search is the same workload and query:
// nothing is estimated again), finds what a finder from nothing does, and
// never writes the Recommendation's estimates, so a view may keep reading
// it while a ranking runs.
func TestSavingsStartsFromRecommend(t *testing.T) {
	cat := testCatalog()
	w := Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 512, DatasetTokens: 1e8}, Model: llama2_7B}
	q := Query{AutoGPUs: true, AllowMultiNode: true}
	rec, err := Recommend(w, cat, q)
	if err != nil || len(rec.Offers) == 0 {
		t.Fatalf("Recommend: %d offers, %v", len(rec.Offers), err)
	}
	from := rec.estimates
	if from == nil || len(from.cache) == 0 || len(from.shapes) == 0 {
		t.Fatal("Recommend kept no estimates for a finder to start from")
	}
	estimates, shapes := len(from.cache), len(from.shapes)
	c := rec.CheapestFinder(cat)
	// same compares the prices the savings eval reads.
	same := func(w Workload, q Query) bool {
		o, ok := c.Offer(w, q)
		want, wantOK := NewCheapestFinder(cat).Offer(w, q)
		if ok != wantOK || !ok {
			t.Errorf("finder from Recommend's estimates found an offer: %v, from nothing: %v", ok, wantOK)
			return false
		}
		if o.JobUSD != want.JobUSD || o.MonthlyUSD != want.MonthlyUSD || o.USDPerHour != want.USDPerHour {
			t.Errorf("finder from Recommend's estimates $%.6g job, $%.6g/h; from nothing $%.6g job, $%.6g/h", o.JobUSD, o.USDPerHour, want.JobUSD, want.USDPerHour)
		}
		return true
	}
	if !same(w, q) {
		t.FailNow()
	}
	if n := len(c.shared.cache) + len(c.shared.shapes); n != 0 {
		t.Errorf("the search of Recommend's own scenario made %d estimates and shapes again", n)
	}
	// A deadline makes auto GPUs try more GPUs: new estimates, same workload.
	dq := q
	dq.DeadlineHours = rec.Offers[0].JobHours / 3
	same(w, dq)
	if len(c.shared.cache) == 0 {
		t.Error("the deadline made no new estimate: the test checks no write")
	}
	// Another workload leaves Recommend's estimates behind.
	w2 := w
	w2.MicroBatch = 2
	same(w2, q)
	if len(from.cache) != estimates || len(from.shapes) != shapes {
		t.Errorf("the finder wrote the Recommendation's estimates: %d → %d estimates, %d → %d shapes",
			estimates, len(from.cache), shapes, len(from.shapes))
	}
}
