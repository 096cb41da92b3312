package model

import (
	"cmp"
	"runtime"
	"slices"
	"strings"
)

// splitMinPairs is the fewest prices (instance type × region) a
// Recommend's scan splits across two goroutines for (splitScan): the
// embedded catalog has ~2,700 for a plain query; a handful of types is
// not worth a goroutine. A variable so that tests split small catalogs.
var splitMinPairs = 512

// splitScan is a Recommend's scan of the catalog in two parts, one on
// the calling goroutine and one on a helper, on a machine with a second
// core: the ranking was a single core's work (model.recommendShared, ≈ 35%
// of `recommend --json`'s CPU time by perf record, issue 32) while the
// other core had little to do. The parts split the GPU types, so that
// each part's estimates, shapes and offer groups (offerGroup holds the
// GPU) are its own: no cache is shared, no estimate made twice, no group
// kept in both. Put together, the result is one scan's, byte for byte:
// the offers in the order one scan finds them (seqs) before the sort, the
// near misses one scan keeps (keptAt), the counts summed
// (TestSplitScanSame).
type splitScan struct {
	part  []int8 // by instance type: 0 the caller's part, 1 the helper's
	pairs [2]int // the prices of each part: room for its offers
	other matcher
	// order is, after run, the offers in the order one scan found them
	// (sortOffersFrom).
	order []int32
}

// newSplitScan returns the split of m's scan, whose query allows pairs
// prices, or nil when it is not worth one: a single core, too few prices,
// one GPU type. Each GPU type goes to the part with fewer prices so far,
// the types with most prices first (ties by key), so the parts carry
// about as many offers each.
func newSplitScan(m *matcher, pairs int) *splitScan {
	if pairs < splitMinPairs || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	cat := m.cat
	// Resolving the GPUs here also builds the catalog's GPU index (lazy,
	// Catalog.GPU) before a second goroutine reads it; the region table
	// likewise (Catalog.Geo, read by a region or country filter).
	gpus := make([]*GPU, len(cat.Instances))
	load := make(map[*GPU]int, 64)
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if !in.Offered() || !m.q.AllowsProvider(in.Provider) || !m.q.AllowsGPU(in.GPU) {
			continue
		}
		g, err := cat.GPU(in.GPU)
		if err != nil {
			continue // scanInstance skips it too; part 0
		}
		gpus[i] = g
		load[g] += len(in.Prices)
	}
	if len(load) < 2 {
		return nil
	}
	if !m.regions.any() {
		cat.geoTables()
	}
	byLoad := make([]*GPU, 0, len(load))
	for g := range load {
		byLoad = append(byLoad, g)
	}
	slices.SortFunc(byLoad, func(a, b *GPU) int {
		if c := cmp.Compare(load[b], load[a]); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	s := &splitScan{part: make([]int8, len(cat.Instances))}
	side := make(map[*GPU]int8, len(load))
	for _, g := range byLoad {
		h := int8(0)
		if s.pairs[1] < s.pairs[0] {
			h = 1
		}
		side[g] = h
		s.pairs[h] += load[g]
	}
	for i, g := range gpus {
		if g != nil {
			s.part[i] = side[g]
		}
	}
	// The caches at half a whole scan's room each, so that the two
	// parts' tables together are one scan's (a map's table is cleared
	// whole when made: its size is paid in pages): the embedded catalog's
	// llama-3.1-8b QLoRA ranking keeps 208 and 196 estimates, 260 and
	// 224 shapes in its parts, which fill 256 and 512 slots each. A part
	// that needs more grows its map.
	m.cache = make(map[estimateKey]*estimateResult, estimatesRoom/2)
	m.shapesRoom = max(shapesRoom(cat)/2, 8)
	s.other = *m
	s.other.cache = make(map[estimateKey]*estimateResult, estimatesRoom/2)
	s.other.nets, s.other.netGroups = nil, nil
	s.other.recent = new(recentEstimates)
	return s
}

// groupsRoom is a part's starting room in its groups' map (offerGroup):
// half of a whole scan's bound (1,024), whose 1,024 slots hold 896 groups
// (the embedded catalog's QLoRA ranking keeps 531 and 601).
const groupsRoom = 512

// run scans the catalog in the two parts, m's on this goroutine into sc
// and counts and the helper's on another, and puts the helper's into sc
// and counts after the caller's as one scan finds them (s.order). A panic
// of the helper's part is raised again here, where one scan's would have
// been (the configurator recovers those of a ranking).
func (s *splitScan) run(m *matcher, sc *offerScan, counts map[RejectKind]int) {
	o := offerScan{sort: sc.sort,
		offers: make([]Offer, 0, min(s.pairs[1], offersRoom)),
		seqs:   make([]int64, 0, min(s.pairs[1], offersRoom))}
	oCounts := make(map[RejectKind]int, 8)
	var panicked any
	done := make(chan struct{})
	go func() {
		defer func() {
			panicked = recover()
			close(done)
		}()
		growStack()
		s.other.scanAll(&o, make(map[offerGroup]int, min(s.pairs[1], groupsRoom)), oCounts, s.part, 1)
	}()
	// Room for both parts' offers: the helper's are appended to these.
	sc.offers = make([]Offer, 0, min(s.pairs[0]+s.pairs[1], offersRoom))
	sc.seqs = make([]int64, 0, min(s.pairs[0], offersRoom))
	m.scanAll(sc, make(map[offerGroup]int, min(s.pairs[0], groupsRoom)), counts, s.part, 0)
	<-done
	if panicked != nil {
		panic(panicked)
	}
	// One scan appends a group's offer where its first offer was found:
	// the two lists, each in that order, merged by it.
	na := len(sc.offers)
	s.order = make([]int32, na+len(o.offers))
	for k, i, j := 0, 0, 0; k < len(s.order); k++ {
		if j >= len(o.seqs) || i < na && sc.seqs[i] < o.seqs[j] {
			s.order[k] = int32(i)
			i++
		} else {
			s.order[k] = int32(na + j)
			j++
		}
	}
	sc.offers = append(sc.offers, o.offers...)
	sc.seqs = nil
	sc.kept, sc.keptAt = mergeNearMisses(sc.kept, sc.keptAt, o.kept, o.keptAt, nearMissCount)
	for k, n := range oCounts {
		counts[k] += n
	}
	sc.considered += o.considered
}

// mergeNearMisses returns the first n of a and b together as one scan
// keeps them (keepNearMissAt): each list is in compareRejections order
// with, among equals, the later instance type (the larger index of ai or
// bi) first, as keepNearMiss places a rejection before those it equals.
func mergeNearMisses(a []Rejection, ai []int, b []Rejection, bi []int, n int) ([]Rejection, []int) {
	if len(b) == 0 {
		return a, ai
	}
	out, at := make([]Rejection, 0, min(n, len(a)+len(b))), make([]int, 0, min(n, len(a)+len(b)))
	i, j := 0, 0
	for len(out) < n && (i < len(a) || j < len(b)) {
		takeA := j >= len(b)
		if !takeA && i < len(a) {
			c := compareRejections(a[i], b[j])
			takeA = c < 0 || c == 0 && ai[i] > bi[j]
		}
		if takeA {
			out, at = append(out, a[i]), append(at, ai[i])
			i++
		} else {
			out, at = append(out, b[j]), append(at, bi[j])
			j++
		}
	}
	return out, at
}

// growStack grows the calling goroutine's stack to 64 KB in one step, as
// internal/stack.Grow does (which model may not import, model/doc.go): a
// goroutine starts at 2 KB, and the matcher's calls go 64 KB deep, so the
// helper of a split scan would otherwise copy its stack at 4, 8, 16, 32
// and 64 KB, walking every frame each time.
func growStack() { stackFrame(0) }

// stackFrameBytes is over half of 64 KB and under it less the frames
// below, so the first growth goes straight to 64 KB.
const stackFrameBytes = 40 << 10

//go:noinline
func stackFrame(i int) byte {
	var b [stackFrameBytes]byte
	return stackTouch(&b, i)
}

//go:noinline
func stackTouch(b *[stackFrameBytes]byte, i int) byte {
	b[i]++
	return b[i]
}
