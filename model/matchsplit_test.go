package model

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"
)

// withSplit runs f with Recommend's scan split (on) or in one piece, on
// two Ps either way.
func withSplit(t *testing.T, on bool, f func()) {
	t.Helper()
	was, procs := splitMinPairs, runtime.GOMAXPROCS(2)
	defer func() { splitMinPairs = was; runtime.GOMAXPROCS(procs) }()
	splitMinPairs = 1 << 30
	if on {
		splitMinPairs = 0
	}
	f()
}

// splitCatalog is testCatalog with more types: each type again under
// other names, providers and prices, so that many offer groups and near
// misses come from both goroutines of a split scan; and a type name given
// under three GPU types at one price, two of the GPUs alike in every
// figure: their offers are two offer groups that compareOffers holds
// equal (same provider, type, region, price, headroom), whose order is
// the order one scan finds them in, and over a price limit their near
// misses compareRejections holds equal.
func splitCatalog() *Catalog {
	c := testCatalog()
	twin := c.GPUs[1]
	twin.Key, twin.Name = "g40b", "G40b"
	c.GPUs = append(c.GPUs, twin)
	base := c.Instances
	for copyN := range 5 {
		for _, in := range base {
			in.Type = fmt.Sprintf("%s-c%d", in.Type, copyN)
			in.Provider = fmt.Sprintf("p%d", 1+copyN%3)
			ps := make([]RegionPrice, len(in.Prices))
			for i, p := range in.Prices {
				p.OnDemandUSD *= 1 + 0.1*float64(copyN%2)
				ps[i] = p
			}
			in.Prices = ps
			c.Instances = append(c.Instances, in)
		}
	}
	for _, g := range []string{"g16", "g40", "g80", "g40b"} {
		c.Instances = append(c.Instances, Instance{Provider: "p9", Type: "twin.1", GPU: g, GPUCount: 1, VCPUs: 8, MemoryGiB: 512,
			Prices: []RegionPrice{{Region: "us-east-1", OnDemandUSD: 500}, {Region: "eu-west-1", OnDemandUSD: 500}}})
	}
	c.Index()
	return c
}

// TestSplitScanSame: a Recommend whose scan is split across two goroutines
// (splitScan) returns what the one scan returns (offers, their order and
// estimates, near misses, reason counts), for queries that keep many
// offers, reject for every reason and sort by each key, run many times
// (which goroutine takes which GPU type changes from run to run); and a
// savings finder started from it finds what one started from the one
// scan's.
func TestSplitScanSame(t *testing.T) {
	cat := splitCatalog()
	llama := Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 512, DatasetTokens: 1e8}, Model: llama2_7B}
	lora := Workload{Settings: Settings{Task: TaskLoRA, MicroBatch: 1, SeqLen: 2048}, Model: llama2_7B}
	fixed := lora
	fixed.GPUs = 8
	for _, tt := range []struct {
		name string
		w    Workload
		q    Query
	}{
		{"auto GPUs, job cost", llama, Query{AutoGPUs: true}},
		{"multi-node, deadline", llama, Query{AutoGPUs: true, AllowMultiNode: true, DeadlineHours: 20}},
		{"hourly, multi-node", llama, Query{AutoGPUs: true, AllowMultiNode: true, Sort: SortPrice}},
		{"price limit: near misses equal across GPU types", lora, Query{AutoGPUs: true, MaxUSDPerHour: 50}},
		{"headroom", lora, Query{AutoGPUs: true, Sort: SortHeadroom}},
		{"monthly, spot", lora, Query{AutoGPUs: true, Sort: SortMonthly, Pricing: Spot}},
		{"reserved", lora, Query{AutoGPUs: true, Pricing: Reserved1y}},
		{"fixed 8 GPUs", fixed, Query{AllowMultiNode: true}},
		{"one region", small, Query{AutoGPUs: true, Regions: []string{"us-east-1"}}},
		{"small, every GPU fits", small, Query{AutoGPUs: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var want Recommendation
			var wantErr error
			withSplit(t, false, func() { want, wantErr = Recommend(tt.w, cat, tt.q) })
			wantCheapest := cheapestAfter(t, cat, &want, tt.w, tt.q)
			want.estimates = nil
			for run := range 20 {
				var got Recommendation
				var err error
				withSplit(t, true, func() { got, err = Recommend(tt.w, cat, tt.q) })
				if fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Fatalf("run %d: split scan error %v, one scan %v", run, err, wantErr)
				}
				if got.estimates != nil && got.estimates.cache2 == nil {
					t.Fatalf("run %d: the scan was not split", run)
				}
				if run == 0 {
					if c := cheapestAfter(t, cat, &got, tt.w, tt.q); c != wantCheapest {
						t.Errorf("savings finder from the split scan: %s, from the one scan: %s", c, wantCheapest)
					}
				}
				got.estimates = nil
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("run %d: split scan differs from one scan:\n%s\n%v\nwant\n%s\n%v", run, offerNames(got), got.Rejected, offerNames(want), want.Rejected)
				}
			}
		})
	}
}

// cheapestAfter is what a savings finder started from r finds for a
// deadline and another pricing mode: the estimates it starts from are
// r's (both goroutines' of a split scan).
func cheapestAfter(t *testing.T, cat *Catalog, r *Recommendation, w Workload, q Query) string {
	t.Helper()
	if r.estimates == nil {
		return "no estimates"
	}
	f := r.CheapestFinder(cat)
	var out []string
	for _, q := range []Query{q, {AutoGPUs: q.AutoGPUs, Pricing: Spot}, {AutoGPUs: q.AutoGPUs, DeadlineHours: 5, AllowMultiNode: true}} {
		if o, ok := f.Offer(w, q); ok {
			out = append(out, fmt.Sprintf("%s/%s@%s $%.6g $%.6g", o.Instance.Provider, o.Instance.Type, o.Region, o.USDPerHour, o.JobUSD))
		} else {
			out = append(out, "none")
		}
	}
	return fmt.Sprint(out)
}

// TestKeepNearMissAtAnyOrder: keepNearMissAt keeps the same list
// whatever order the instance types come in, and the list keepNearMiss
// keeps given them in catalog order; mergeNearMisses of two parts' lists
// is the whole's. Many rejections compare equal (few distinct prices,
// providers and types).
func TestKeepNearMissAtAnyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 2))
	ins := []*Instance{{Provider: "a", Type: "x"}, {Provider: "a", Type: "y"}, {Provider: "b", Type: "x"}}
	for trial := range 300 {
		n := 1 + r.IntN(40)
		xs := make([]Rejection, n)
		for i := range xs {
			xs[i] = Rejection{Instance: ins[r.IntN(len(ins))], USDPerHour: float64(r.IntN(3)), Kind: []RejectKind{RejectVRAM, RejectPrice, RejectSoftware}[r.IntN(3)],
				ShortBytes: float64(r.IntN(2)), Region: fmt.Sprint(i)} // Region tells them apart
		}
		keep := 1 + r.IntN(12)
		var want []Rejection
		for _, x := range xs {
			want = keepNearMiss(want, x, keep)
		}
		var inOrder []Rejection
		var inOrderAt []int
		for i, x := range xs {
			inOrder, inOrderAt = keepNearMissAt(inOrder, inOrderAt, x, i, keep)
		}
		if !reflect.DeepEqual(inOrder, want) {
			t.Fatalf("trial %d: keepNearMissAt in catalog order %v, keepNearMiss %v", trial, inOrder, want)
		}
		var parts [2][]Rejection
		var partsAt [2][]int
		var shuffled []Rejection
		var shuffledAt []int
		for _, i := range r.Perm(n) {
			shuffled, shuffledAt = keepNearMissAt(shuffled, shuffledAt, xs[i], i, keep)
			p := i % 2
			parts[p], partsAt[p] = keepNearMissAt(parts[p], partsAt[p], xs[i], i, keep)
		}
		if !reflect.DeepEqual(shuffled, want) {
			t.Fatalf("trial %d: keepNearMissAt in another order %v, want %v", trial, shuffled, want)
		}
		if merged, _ := mergeNearMisses(parts[0], partsAt[0], parts[1], partsAt[1], keep); !reflect.DeepEqual(merged, want) {
			t.Fatalf("trial %d: two parts merged %v, want %v", trial, merged, want)
		}
	}
}

// TestSortHalvesSame: sortHalves gives slices.SortFunc's order of the
// same list when no two elements compare equal, and refuses (false, the
// list untouched) when some do, whatever their place.
func TestSortHalvesSame(t *testing.T) {
	procs := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(procs)
	r := rand.New(rand.NewPCG(32, 3))
	for trial := range 200 {
		n := sortHalvesMin + r.IntN(600)
		keys := make([]int, n)
		for i := range keys {
			keys[i] = i
		}
		r.Shuffle(n, func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		ties := trial%2 == 1
		if ties { // one pair of equal keys somewhere
			keys[r.IntN(n)] = keys[r.IntN(n)]
		}
		compare := func(a, b int32) int { return cmp.Compare(keys[a], keys[b]) }
		order := make([]int32, n)
		for i := range order {
			order[i] = int32((i*7 + trial) % n)
		}
		if n%7 == 0 {
			for i := range order {
				order[i] = int32(i)
			}
		}
		was := slices.Clone(order)
		want := slices.Clone(order)
		slices.SortFunc(want, compare)
		equal := false
		for i := 1; i < n; i++ {
			equal = equal || compare(want[i-1], want[i]) == 0
		}
		ok := sortHalves(order, compare)
		switch {
		case ok && equal:
			t.Fatalf("trial %d: sorted a list with equal elements on two goroutines", trial)
		case !ok && !equal:
			t.Fatalf("trial %d: refused a list without equal elements", trial)
		case ok && !slices.Equal(order, want):
			t.Fatalf("trial %d: order differs from slices.SortFunc's", trial)
		case !ok && !slices.Equal(order, was):
			t.Fatalf("trial %d: a refused list was changed", trial)
		}
	}
}

// TestOrderBySeq holds orderBySeq to sorting the indexes by their seqs,
// on packed keys and on the fallback (an at, a pos beyond the packing).
func TestOrderBySeq(t *testing.T) {
	seq := func(at, pos int) int64 { return int64(at)<<32 | int64(pos) }
	for _, tc := range []struct {
		name string
		seqs []int64
		want []int32
	}{
		{"empty", nil, []int32{}},
		{"one", []int64{seq(5, 2)}, []int32{0}},
		{"by type, then price", []int64{seq(7, 1), seq(3, 9), seq(7, 0), seq(0, 4)}, []int32{3, 1, 2, 0}},
		{"type beyond 24 bits", []int64{seq(1<<24, 0), seq(2, 3), seq(1, 70000)}, []int32{2, 1, 0}},
		{"price beyond 16 bits", []int64{seq(4, 1<<16), seq(4, 3)}, []int32{1, 0}},
	} {
		if got := orderBySeq(tc.seqs); !slices.Equal(got, tc.want) {
			t.Errorf("%s: orderBySeq = %v, want %v", tc.name, got, tc.want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		seen := map[int64]bool{}
		var seqs []int64
		for range r.IntN(3000) {
			q := seq(r.IntN(900), r.IntN(40))
			if !seen[q] {
				seen[q] = true
				seqs = append(seqs, q)
			}
		}
		want := make([]int32, len(seqs))
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortFunc(want, func(a, b int32) int { return cmp.Compare(seqs[a], seqs[b]) })
		if got := orderBySeq(seqs); !slices.Equal(got, want) {
			t.Fatalf("orderBySeq of %d seqs differs from the sort by seq", len(seqs))
		}
	}
}
