package model

import (
	"cmp"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
)

// splitMinPairs is the fewest prices (instance type × region) a
// Recommend's scan splits across two goroutines for (splitScan): the
// embedded catalog has ~2,700 for a plain query; a handful of types is
// not worth a goroutine. A variable so that tests split small catalogs.
var splitMinPairs = 512

// splitScan is a Recommend's scan of the catalog on two goroutines, the
// caller and a helper, on a machine with a second core: the ranking was
// a single core's work (model.recommendShared, ≈ 35% of `recommend
// --json`'s CPU time by perf record, issue 32) while the other core had
// little to do. The work is cut by GPU type (a unit: the instance types
// with that GPU, in catalog order), and each goroutine takes the next
// unit left, those with most prices first, until none is: a helper that
// starts late (the other core busy) or a unit that costs more than its
// prices say shifts the rest to the other goroutine. A GPU type's
// estimates, shapes and offer groups (offerGroup holds the GPU) are
// therefore one goroutine's: no cache is shared, no estimate made twice,
// no group kept twice. The offers go into one list shared by both, each
// at the next free slot (claim), with where its group's first offer was
// found, so that the list can be sorted from the order one scan finds
// them in (order, sortOffersFrom); the near misses are kept with their
// types' index and merged as one scan keeps them (mergeNearMisses), the
// counts summed. The result is one scan's, byte for byte
// (TestSplitScanSame), whichever goroutine took which unit.
type splitScan struct {
	// unit u's instance types are inst[start[u]:start[u+1]].
	inst, start []int32
	next        atomic.Int32 // the next unit no goroutine has taken
	// offers is the shared list, as long as the query's prices (each makes
	// one offer at most); slots counts those written, seqs says where
	// each one's group was first found (instance index << 32 | price).
	offers []Offer
	seqs   []int64
	slots  atomic.Int32
	other  matcher // the helper's
	// order is, after run, the offers' slots in the order one scan finds
	// them (sortOffersFrom).
	order []int32
}

// newSplitScan returns the split of m's scan, whose query allows pairs
// prices, or nil when it is not worth one (a single core, too few prices,
// one GPU type) or the offers' list would be longer than offersRoom (a
// large overlay: one scan appends to a list that grows).
func newSplitScan(m *matcher, pairs int) *splitScan {
	if pairs < splitMinPairs || pairs > offersRoom || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	cat := m.cat
	// Resolving the GPUs here also builds the catalog's GPU index (lazy,
	// Catalog.GPU) before a second goroutine reads it; the region table
	// likewise (Catalog.Geo, read by a region or country filter). A type
	// whose GPU is unknown is in no unit: one scan skips it too
	// (scanInstance).
	type unit struct {
		g            *GPU
		prices, size int32
		// perNode has bit n-1 set for each n GPUs per node of the
		// unit's types up to 64; more are counted in shapes at once.
		perNode uint64
	}
	shapes := 0 // distinct (GPU, GPUs per node), a bound on shapeKeyOf's keys on one node
	unitOf := make([]int32, len(cat.Instances))
	var units []unit
	index := make(map[*GPU]int32, 64)
	for i := range cat.Instances {
		unitOf[i] = -1
		in := &cat.Instances[i]
		if !m.q.scans(in) {
			continue
		}
		g, err := cat.GPU(in.GPU)
		if err != nil {
			continue
		}
		u, ok := index[g]
		if !ok {
			u = int32(len(units))
			index[g] = u
			units = append(units, unit{g: g})
		}
		unitOf[i] = u
		units[u].prices += int32(len(in.Prices))
		units[u].size++
		if n := in.GPUCount; n >= 1 && n <= 64 {
			units[u].perNode |= 1 << (n - 1)
		} else {
			shapes++
		}
	}
	if len(units) < 2 {
		return nil
	}
	if !m.regions.any() {
		cat.geoTables()
	}
	// Units with most prices first (ties by GPU key), so the last ones
	// taken are small.
	rank := make([]int32, len(units))
	for u := range rank {
		rank[u] = int32(u)
	}
	slices.SortFunc(rank, func(a, b int32) int {
		if c := cmp.Compare(units[b].prices, units[a].prices); c != 0 {
			return c
		}
		return strings.Compare(units[a].g.Key, units[b].g.Key)
	})
	s := &splitScan{start: make([]int32, len(units)+1), offers: make([]Offer, pairs), seqs: make([]int64, pairs)}
	at := make([]int32, len(units)) // by unit: where its next type goes
	n := int32(0)
	for r, u := range rank {
		s.start[r], at[u] = n, n
		n += units[u].size
	}
	s.start[len(units)] = n
	s.inst = make([]int32, n)
	for i, u := range unitOf {
		if u >= 0 {
			s.inst[at[u]] = int32(i)
			at[u]++
		}
	}
	// The caches at half a whole scan's room each, so that the two
	// goroutines' tables together are one scan's (a map's table is
	// cleared whole when made: its size is paid in pages): the embedded
	// catalog's llama-3.1-8b QLoRA ranking keeps ~200 estimates and ~240
	// shapes on each, which fill 256 and 512 slots. One that needs more
	// grows its map.
	m.cache = make(map[estimateKey]*estimateResult, estimatesRoom/2)
	m.shapesRoom = max(shapesRoom(cat)/2, 8)
	if m.q.AutoGPUs && m.q.MaxNodes <= 1 && !m.w.Model.Family.Vision() {
		// Keyed by GPU and GPUs per node alone (shapeKeyOf): ~170
		// shapes in all for the embedded catalog's QLoRA ranking, where
		// a room of 448 on each goroutine cleared 512 slots of 176 bytes
		// (~90 KB of fresh pages) for ~85 of them. A host short of RAM
		// adds a shape of its own; a map that needs more grows.
		for _, u := range units {
			shapes += bits.OnesCount64(u.perNode)
		}
		m.shapesRoom = max(shapes/2, 8)
	}
	s.other = *m
	s.other.cache = make(map[estimateKey]*estimateResult, estimatesRoom/2)
	s.other.nets, s.other.netGroups, s.other.valid = nil, nil, nil
	s.other.recent = new(recentEstimates)
	return s
}

// groupsRoom is each goroutine's starting room in its groups' map
// (offerGroup): half of a whole scan's bound (1,024), whose 1,024 slots
// hold 896 groups (the embedded catalog's QLoRA ranking keeps ~570 on
// each).
const groupsRoom = 512

// claim returns the next free slot of the shared list for a new group's
// offer, found at price pos of instance type at.
func (s *splitScan) claim(at, pos int) int {
	i := int(s.slots.Add(1) - 1)
	s.seqs[i] = int64(at)<<32 | int64(pos)
	return i
}

// scanUnits scans the units s has left, one at a time, into sc, best and
// counts.
func (m *matcher) scanUnits(s *splitScan, sc *offerScan, best map[offerGroup]int, counts map[RejectKind]int) {
	for {
		u := int(s.next.Add(1) - 1)
		if u >= len(s.start)-1 {
			break
		}
		for _, i := range s.inst[s.start[u]:s.start[u+1]] {
			sc.nextInstance()
			sc.at = int(i)
			m.scanInstance(&m.cat.Instances[i], sc, best, counts)
		}
	}
	sc.nextInstance()
}

// run scans the catalog on this goroutine with m into sc and counts and
// on a helper with s.other, and puts the helper's near misses, counts and
// prices looked at into sc and counts, the offers of both into sc.offers
// and their order as one scan finds them into s.order. A panic of the
// helper's is raised again here, where one scan's would have been (the
// configurator recovers those of a ranking).
func (s *splitScan) run(m *matcher, sc *offerScan, counts map[RejectKind]int) {
	sc.offers, sc.split = s.offers, s
	o := offerScan{sort: sc.sort, view: sc.view, offers: s.offers, split: s}
	oCounts := make(map[RejectKind]int, 8)
	var panicked any
	done := make(chan struct{})
	go func() {
		defer func() {
			panicked = recover()
			close(done)
		}()
		growStack()
		s.other.scanUnits(s, &o, make(map[offerGroup]int, groupsRoom), oCounts)
	}()
	m.scanUnits(s, sc, make(map[offerGroup]int, groupsRoom), counts)
	<-done
	if panicked != nil {
		panic(panicked)
	}
	n := int(s.slots.Load())
	sc.offers, sc.split = s.offers[:n], nil
	// One scan appends a group's offer where its first offer was found.
	s.order = orderBySeq(s.seqs[:n])
	sc.kept, sc.keptAt = mergeNearMisses(sc.kept, sc.keptAt, o.kept, o.keptAt, nearMissCount)
	for k, n := range oCounts {
		counts[k] += n
	}
	sc.considered += o.considered
}

// orderBySeq returns the indexes of seqs (each at<<32 | pos, all
// distinct) in the order of their values. Each is packed with its index
// into one number, at in the top 24 bits, pos in the next 16 and the
// index in the last 24, when they fit (the embedded catalog's ~1,100
// offers of 842 types do, by far), and the numbers are sorted as they
// are: the same order as sorting the indexes by seqs, with no call to a
// comparison per step (that sort was ~1% of recommend --json's CPU
// samples, on the ranking's goroutine with the other core idle).
func orderBySeq(seqs []int64) []int32 {
	order := make([]int32, len(seqs))
	keys := make([]uint64, len(seqs))
	for i, q := range seqs {
		at, pos := uint64(q)>>32, uint64(q)&(1<<32-1)
		if at >= 1<<24 || pos >= 1<<16 || i >= 1<<24 {
			for i := range order {
				order[i] = int32(i)
			}
			slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(seqs[a], seqs[b]) })
			return order
		}
		keys[i] = at<<40 | pos<<24 | uint64(i)
	}
	slices.Sort(keys)
	for i, k := range keys {
		order[i] = int32(k & (1<<24 - 1))
	}
	return order
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
