package data

import (
	"bytes"
	"cmp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// Guard is one suspicious price or shape found by Guards.
type Guard struct {
	Provider, Type, Region string
	Rule                   string // "spot-above-on-demand", "below-median", "below-floor", "price-cut", "price-rise", "below-peer", "form-factor", "unknown-region"
	// Msg is what a finding built by hand says, without Message's
	// "provider/type region:". The guards leave it zero and keep their
	// figures instead (text): read Text, which is Msg or the message the
	// figures make.
	Msg model.Message
	// Origin is the file that set the price (the region's) or the row
	// (model.PriceProvenance): "embedded" or an overlay's path.
	Origin string
	// text makes Msg from the figures it holds (a closure over them; nil
	// when Msg is set). A finding is made for every suspicious price and
	// a few are shown: an overlay of 1,000 types in 100 regions the
	// catalog does not know made 170,000, whose messages (arguments
	// boxed, prices formatted) were ≈ 26 MB allocated, their figures
	// 6.5 MB (docs/speed.md, guardmem).
	text func(*Guard) model.Message
}

func (g Guard) String() string { return g.Message().String() }

// Text is what the finding says, without the "provider/type region:" of
// Message: Msg, or the message its figures make.
func (g Guard) Text() model.Message {
	if g.text != nil && g.Msg.Key == "" {
		return g.text(&g)
	}
	return g.Msg
}

// Message is the finding as one line: "aws/p4d.24xlarge us-east-1: ...".
func (g Guard) Message() model.Message {
	if g.Region != "" {
		return model.Msg("%s/%s %s: %v", g.Provider, g.Type, g.Region, g.Text())
	}
	return model.Msg("%s/%s: %v", g.Provider, g.Type, g.Text())
}

// medianFraction is the share of its family's median per-GPU on-demand
// price below which a row is flagged: GCP's flex-start discount of up to
// 53% (catalog audit #1) lands below it, regional list price spreads
// (< 40% in every cloud of the snapshot) do not.
const medianFraction = 0.6

// Guards checks instances against the rules of catalog audit §6 and
// returns what looks wrong, in input order:
//   - spot-above-on-demand: an on-demand price below the same region's
//     spot price is not on-demand (no cloud sells on-demand below spot);
//   - below-median: an on-demand price below medianFraction × the median
//     of the same type's on-demand prices over its regions, when it has
//     at least three (the DWS pattern; sizes of one family differ in
//     price per GPU, so the type is the family here);
//   - form-factor: a type or SkyPilot accelerator named PCIe on an
//     SXM/NVLink GPU entry or named SXM on a PCIe card (catalog audit #5;
//     new-user walk: Hyperstack's "H100-80G-PCIe-NVLink" on h100-sxm), or
//     NVSwitch between PCIe cards (NVSwitch joins SXM modules on an HGX
//     baseboard);
//   - unknown-region: a region the provider has nowhere in known (a typo
//     or a region the type is not offered in); skipped when known is nil.
//
// Duplicated types and regions and GPU memory given per instance are
// load errors already (decode, merge, rawGPU.validate), so each instance
// of insts is its own family and is checked on its own.
func Guards(c *model.Catalog, insts []model.Instance, known map[string]map[string]bool) []Guard {
	var g guarder
	for i := range insts {
		g.guard(c, &insts[i], known)
	}
	return g.out.slice()
}

// guardBlock is how many findings a full block of a guardList holds; the
// first blocks are smaller (8, 16, …), so a few findings take little.
const guardBlock = 1024

// guardList collects findings in blocks, never copying one: Go grows a
// large slice by about 1.25× at a time (runtime/slice.go, nextslicecap),
// so one grown by append to n findings has allocated about 5n — for an
// overlay of 1,000 types in 100 regions the catalog does not know,
// 170,000 findings of 128 bytes (21 MB) were ≈ 130 MB allocated
// (docs/speed.md, guardmem).
type guardList struct{ blocks [][]Guard }

// add appends g.
func (l *guardList) add(g Guard) {
	n := len(l.blocks)
	if n == 0 || len(l.blocks[n-1]) == cap(l.blocks[n-1]) {
		size := 8
		if n > 0 {
			size = min(2*cap(l.blocks[n-1]), guardBlock)
		}
		l.blocks = append(l.blocks, make([]Guard, 0, size))
		n++
	}
	l.blocks[n-1] = append(l.blocks[n-1], g)
}

// addList appends o's findings, in order, taking its blocks.
func (l *guardList) addList(o guardList) { l.blocks = append(l.blocks, o.blocks...) }

// slice returns the findings as one slice, in order (nil for none).
func (l *guardList) slice() []Guard {
	if len(l.blocks) == 1 {
		return l.blocks[0]
	}
	var out []Guard
	for _, b := range l.blocks {
		out = append(out, b...)
	}
	return out
}

// guarder collects findings over many instances, reusing what one
// instance's checks need (a CSV overlay has 100,000).
type guarder struct {
	out    guardList
	perGPU []float64 // one instance's on-demand prices per GPU
	// The last instance's provider and its known regions: instances of
	// one provider come together.
	provider      string
	regions       map[string]bool
	known, cached bool
	gpu           *model.GPU // the last instance's GPU, when known
}

// guard appends in's findings to gd.out.
func (gd *guarder) guard(c *model.Catalog, in *model.Instance, known map[string]map[string]bool) {
	if !gd.cached || in.Provider != gd.provider {
		gd.provider, gd.cached = in.Provider, true
		gd.regions, gd.known = known[in.Provider]
	}
	if gd.gpu == nil || gd.gpu.Key != in.GPU {
		gd.gpu, _ = c.GPU(in.GPU)
	}
	if g := gd.gpu; g != nil {
		name, accel := in.Type, in.SkyPilotAccelerator
		module := g.Interconnect != "" && g.Interconnect != "pcie"
		var text func(*Guard) model.Message
		// The GPU's form factor first: it rules out half the names'
		// scans, each a pass over the name (100,000 of them in a CSV).
		switch {
		case module && lowerContains(name, "pci"):
			text = namedPCIe(g.Key, g.Interconnect)
		case g.Interconnect == "pcie" && lowerContains(name, "sxm"):
			text = namedSXM(g.Key)
		case module && lowerContains(accel, "pci"):
			text = acceleratorPCIe(in.SkyPilotAccelerator, g.Key, g.Interconnect)
		case g.Interconnect == "pcie" && lowerContains(accel, "sxm"):
			text = acceleratorSXM(in.SkyPilotAccelerator, g.Key)
		case in.Interconnect == "nvswitch" && g.Interconnect == "pcie":
			text = nvswitchPCIe(g.Key)
		}
		if text != nil {
			gd.out.add(Guard{Provider: in.Provider, Type: in.Type, Rule: "form-factor", Origin: in.Origin, text: text})
		}
	}
	gd.perGPU = gd.perGPU[:0]
	for _, p := range in.Prices {
		if p.OnDemandUSD > 0 && in.GPUCount > 0 {
			gd.perGPU = append(gd.perGPU, p.OnDemandUSD/float64(in.GPUCount))
		}
	}
	m := 0.0
	if len(gd.perGPU) >= 3 {
		m = median(gd.perGPU)
	}
	for i := range in.Prices {
		p := &in.Prices[i]
		finding := func(rule string, text func(*Guard) model.Message) {
			_, origin, _ := model.PriceProvenance(in, p)
			gd.out.add(Guard{Provider: in.Provider, Type: in.Type, Region: p.Region, Rule: rule, Origin: origin, text: text})
		}
		switch {
		case p.OnDemandUSD > 0 && p.SpotUSD > p.OnDemandUSD*spotTolerance:
			finding("spot-above-on-demand", spotAbove(p.OnDemandUSD, p.SpotUSD))
		case p.OnDemandUSD > 0 && m > 0 && p.OnDemandUSD/float64(in.GPUCount) < medianFraction*m:
			finding("below-median", belowMedian(p.OnDemandUSD/float64(in.GPUCount), m))
		}
		if gd.known && !gd.regions[p.Region] {
			finding("unknown-region", unknownRegion)
		}
	}
}

// lowerContains reports whether strings.ToLower(s) contains word, a
// lower-case ASCII word, without making the lower-case copy when s is
// ASCII (ToLower then maps A–Z alone, byte for byte): an accelerator
// name such as "A100" was copied for every one of an overlay's 100,000
// instances, most of the load's allocations. Other strings take ToLower
// itself, which folds some runes outside ASCII to ASCII letters (U+0130
// İ to i).
func lowerContains(s, word string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.Contains(strings.ToLower(s), word)
		}
	}
outer:
	for i := 0; i+len(word) <= len(s); i++ {
		for j := 0; j < len(word); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != word[j] {
				continue outer
			}
		}
		return true
	}
	return false
}

// The messages of Guards' findings, made when one is shown (Guard.text).
// Prices are written as the tables print them (show.USDPerHour), not as
// %g's 3.2247587500000003.

func namedPCIe(gpu, interconnect string) func(*Guard) model.Message {
	return func(*Guard) model.Message {
		return model.Msg("named PCIe but its GPU %s is an %s module", gpu, interconnect)
	}
}

func namedSXM(gpu string) func(*Guard) model.Message {
	return func(*Guard) model.Message { return model.Msg("named SXM but its GPU %s is a PCIe card", gpu) }
}

func acceleratorPCIe(accel, gpu, interconnect string) func(*Guard) model.Message {
	return func(*Guard) model.Message {
		return model.Msg("SkyPilot accelerator %s names PCIe but its GPU %s is an %s module", accel, gpu, interconnect)
	}
}

func acceleratorSXM(accel, gpu string) func(*Guard) model.Message {
	return func(*Guard) model.Message {
		return model.Msg("SkyPilot accelerator %s names SXM but its GPU %s is a PCIe card", accel, gpu)
	}
}

func nvswitchPCIe(gpu string) func(*Guard) model.Message {
	return func(*Guard) model.Message {
		return model.Msg("interconnect nvswitch but its GPU %s is a PCIe card: NVSwitch joins SXM modules", gpu)
	}
}

func spotAbove(onDemand, spot float64) func(*Guard) model.Message {
	return func(*Guard) model.Message {
		return model.Msg("on-demand %s is below spot %s: not an on-demand price", show.USDPerHour(onDemand), show.USDPerHour(spot))
	}
}

func belowMedian(perGPU, median float64) func(*Guard) model.Message {
	return func(*Guard) model.Message {
		return model.Msg("on-demand %s per GPU-hour is below %.0f%% of the type's median over regions, %s (a flex-start or promotional price?)",
			show.USDPerHour(perGPU), medianFraction*100, show.USDPerHour(median))
	}
}

// unknownRegion needs no figure but the finding's provider: one function
// for all, nothing allocated per finding.
func unknownRegion(g *Guard) model.Message {
	return model.Msg("region not offered by %s in the catalog (typo?)", g.Provider)
}

// KnownRegions returns the regions each provider of c has prices in.
func KnownRegions(c *model.Catalog) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, in := range c.Instances {
		if out[in.Provider] == nil {
			out[in.Provider] = map[string]bool{}
		}
		for _, p := range in.Prices {
			out[in.Provider][p.Region] = true
		}
	}
	return out
}

// baseKnownRegions is KnownRegions of the embedded catalog, computed once.
var baseKnownRegions = sync.OnceValue(func() map[string]map[string]bool { return KnownRegions(sharedCatalog()) })

// RegionWarned reports whether a price of provider in region gets the
// unknown-region finding ("region not offered by … (typo?)"): the
// embedded catalog prices provider, and nowhere in region. export never
// picks such a region by default (attack r29b F1: a mirror's "a,,b" was
// the file's region).
func RegionWarned(provider, region string) bool {
	regions, ok := baseKnownRegions()[provider]
	return ok && !regions[region]
}

// overlayGuards returns the guard findings for the instances overlays
// changed, as warnings for LoadWith.
func overlayGuards(base, merged *model.Catalog, files []catalogFile) []model.Message {
	// merge lays out the embedded instances first, in base's order, then
	// the ones overlays add: an instance changed if it is past base's or
	// an overlay names its type. Only base's few hundred types are keyed,
	// by provider and then type, so a CSV overlay's 100,000 look-ups hash
	// the type alone.
	nb := len(base.Instances)
	baseAt := map[string]map[string]int{}
	for i := range base.Instances {
		in := &base.Instances[i]
		if baseAt[in.Provider] == nil {
			baseAt[in.Provider] = map[string]int{}
		}
		baseAt[in.Provider][in.Type] = i
	}
	touched := make([]bool, nb)
	var provider string
	var types map[string]int
	touch := func(in *model.Instance) {
		if in.Provider != provider || types == nil {
			provider, types = in.Provider, baseAt[in.Provider]
		}
		if i, ok := types[in.Type]; ok {
			touched[i] = true
		}
	}
	for _, f := range files {
		for i := range f.instances {
			touch(&f.instances[i].Instance)
		}
		for i := range f.full {
			touch(&f.full[i])
		}
	}
	known := KnownRegions(base)
	merged.Index() // guard reads it from two goroutines: index it first
	// Base's touched instances here, the ones overlays add in chunks taken
	// in turn by two goroutines when there are many (a CSV overlay; see
	// parser.instances); findings are sorted below.
	var gds [2]guarder
	for i := range nb {
		if touched[i] {
			gds[0].guard(merged, &merged.Instances[i], known)
		}
	}
	added := merged.Instances[nb:]
	var next atomic.Int64
	work := func(gd *guarder) {
		for lo := int(next.Add(buildChunk) - buildChunk); lo < len(added); lo = int(next.Add(buildChunk) - buildChunk) {
			for i := range added[lo:min(lo+buildChunk, len(added))] {
				gd.guard(merged, &added[lo+i], known)
			}
		}
	}
	var wg sync.WaitGroup
	if len(added) >= parallelBuild {
		wg.Go(func() { work(&gds[1]) })
	}
	work(&gds[0])
	wg.Wait()
	var found guardList
	found.addList(gds[0].out)
	found.addList(gds[1].out)
	// The price guards catalog update runs, against the embedded catalog:
	// each builds its look-up of base once, then one map look-up per
	// instance (a CSV overlay's 100,000 stay linear).
	var changed []int // positions in merged of base's touched instances
	for i := range nb {
		if touched[i] {
			changed = append(changed, i)
		}
	}
	touchedInsts := make([]model.Instance, len(changed))
	for j, i := range changed {
		touchedInsts[j] = merged.Instances[i]
	}
	floors := baseFloors()
	var other []*model.Instance // priced in another currency: floors applied when converted
	for _, i := range changed {
		other = append(other, &merged.Instances[i])
	}
	for i := range added {
		if added[i].Currency != "" {
			other = append(other, &added[i])
		}
	}
	SetCurrencyFloors(floors, merged, other)
	PeerFloors(base, other) // the below-peer rule, applied once converted too
	priceGuards(floors, base, merged, touchedInsts, &found)
	priceGuards(floors, base, merged, added, &found)
	held := holdFlagged(base, merged, nb, changed, found.blocks)
	return append(held, summarizeGuards(found.blocks...)...)
}

// priceGuards adds to found what the price guards catalog update runs
// find in insts, in the order they are run: below-floor, price-cut,
// price-rise, below-peer, new-price-cut. Each only reads base, merged and
// insts, so for many instances (a CSV overlay's 100,000: ~35 ms of map
// look-ups on the load's critical path) they run on two goroutines into
// lists of their own, appended in that order after.
func priceGuards(floors *Floors, base, merged *model.Catalog, insts []model.Instance, found *guardList) {
	var lists [5]guardList
	passes := [5]func(){
		func() { floorGuards(floors, merged, insts, &lists[0]) },
		func() { sameTypeGuards(base, insts, false, &lists[1]) }, // CutGuards
		func() { sameTypeGuards(base, insts, true, &lists[2]) },  // RiseGuards
		func() { peerGuards(base, insts, &lists[3]) },
		func() { newPriceGuards(base, insts, &lists[4]) },
	}
	if len(insts) < parallelBuild {
		for _, pass := range passes {
			pass()
		}
	} else {
		// Halves of about equal work, measured on the 100k overlay
		// (BenchmarkRunRecommendCSV100k's profile: below-floor 6.5 ms,
		// price-cut 3.5, price-rise 2.6, below-peer 7, new-price-cut 11).
		var wg sync.WaitGroup
		wg.Go(func() { passes[0](); passes[2](); passes[3]() })
		passes[1]()
		passes[4]()
		wg.Wait()
	}
	for _, l := range lists {
		found.addList(l)
	}
}

// baseSpotMarkets is SpotMarkets of the embedded catalog, computed once.
var baseSpotMarkets = sync.OnceValue(func() map[string]bool { return SpotMarkets(sharedCatalog()) })

// baseFloors is GPUFloors of the embedded catalog, computed once.
var baseFloors = sync.OnceValue(func() *Floors { return GPUFloors(sharedCatalog()) })

// holdFlagged sets RegionPrice.Held on each price a price rule of found
// flagged (PriceRule) that an overlay set, in merged's instances changed
// (base's, patched) and past them (added), and sets each such finding's
// Origin to the file that set the price (model.PriceProvenance: a patched
// instance is the embedded catalog's, its region price the overlay's). It
// returns a line per overlay saying how many prices it held. Findings are
// looked up by provider and type, so the pass costs one map look-up per
// instance, and nothing when there are none.
//
// A held price over one base has for the same type and region keeps
// base's in RegionPrice.Beside, listed in its place unless
// --trust-overlay (model.Catalog.UseEmbeddedForHeld); its overlay's line
// says so (model.HeldPricesEmbedded).
func holdFlagged(base, merged *model.Catalog, nb int, changed []int, found [][]Guard) []model.Message {
	var at byProvider[[]*Guard] // an overlay's 100,000 instances are looked up in it
	flagged := false
	for _, part := range found {
		for i := range part {
			if g := &part[i]; PriceRule(g.Rule) {
				at.set(g.Provider, g.Type, append(at.at(g.Provider, g.Type), g))
				flagged = true
			}
		}
	}
	if !flagged {
		return nil
	}
	count := map[string]int{} // held prices per overlay
	kept := map[string]int{}  // of them, those the embedded catalog's price stands in for
	var order []string
	hold := func(in *model.Instance, cloned bool, was *model.Instance) {
		gs := at.at(in.Provider, in.Type)
		if len(gs) == 0 {
			return
		}
		// A type's findings hold all its prices, a region's its price:
		// looked up by region, so a type priced in 40,000 regions with a
		// finding in each is one pass, not 40,000² comparisons (5.3 s
		// in BenchmarkLoadWithCSVDistinctRegions).
		var typeWide []*Guard
		byRegion := map[string][]*Guard{}
		for _, g := range gs {
			if g.Region == "" {
				typeWide = append(typeWide, g)
			} else {
				byRegion[g.Region] = append(byRegion[g.Region], g)
			}
		}
		for j := range in.Prices {
			for _, list := range [2][]*Guard{typeWide, byRegion[in.Prices[j].Region]} {
				for _, g := range list {
					_, origin, _ := model.PriceProvenance(in, &in.Prices[j])
					g.Origin = origin
					if !model.FromOverlay(origin) || in.Prices[j].Held {
						continue
					}
					if !cloned { // base's instance: its prices may be shared with the compiled catalog
						in.Prices, cloned = slices.Clone(in.Prices), true
					}
					in.Prices[j].Held = true
					if count[origin]+kept[origin] == 0 {
						order = append(order, origin)
					}
					if was != nil {
						if bp, ok := regionPriceOf(was, in.Prices[j].Region); ok && !bp.Held {
							src, org, asOf := model.PriceProvenance(was, &bp)
							bp.Patch = &model.PricePatch{Source: src, Origin: org, AsOf: asOf}
							in.Prices[j].Beside = &bp
							kept[origin]++
							continue
						}
					}
					count[origin]++
				}
			}
		}
	}
	for _, i := range changed {
		hold(&merged.Instances[i], false, &base.Instances[i])
	}
	for _, i := range flaggedAdded(&at, merged.Instances, nb) {
		hold(&merged.Instances[i], true, nil)
	}
	sort.Strings(order)
	var out []model.Message
	for _, o := range order {
		if count[o] > 0 {
			out = append(out, model.HeldCount(model.HeldPrices, o, count[o]))
		}
		if kept[o] > 0 {
			out = append(out, model.HeldCount(model.HeldPricesEmbedded, o, kept[o]))
		}
	}
	return out
}

// flaggedAdded returns the positions in insts from nb on of the
// instances at has findings for, in order. A CSV overlay's 100,000 are
// looked up in two halves on two goroutines (each with a copy of at:
// get remembers the last provider); the few found are held in turn.
func flaggedAdded(at *byProvider[[]*Guard], insts []model.Instance, nb int) []int {
	find := func(at byProvider[[]*Guard], lo, hi int) []int {
		var out []int
		for i := lo; i < hi; i++ {
			if in := &insts[i]; len(at.at(in.Provider, in.Type)) > 0 {
				out = append(out, i)
			}
		}
		return out
	}
	if len(insts)-nb < parallelBuild {
		return find(*at, nb, len(insts))
	}
	mid := nb + (len(insts)-nb)/2
	var second []int
	var wg sync.WaitGroup
	wg.Go(func() { second = find(*at, mid, len(insts)) })
	first := find(*at, nb, mid)
	wg.Wait()
	return append(first, second...)
}

// summarizeGuards turns findings into warnings: by file (the overlay
// that set the price or row) and rule, at most shownPerKind of each,
// sorted, then how many more — a 100,000-row overlay with one mistake
// repeated warns in a few lines, not 100,000. The findings may come in
// several slices, read in turn as one.
func summarizeGuards(found ...[]Guard) []model.Message {
	// Each group shows its first shownPerKind lines in the order of their
	// English text, "catalog PATH: provider/type region: …": within a
	// group the prefix is one, so the order is that of
	// "provider/type region:" (appendKey), the rest of the text breaking
	// ties. One pass keeps each group's first shownPerKind findings so far
	// and counts the others, and only a line that ties with a kept one is
	// formatted. An overlay of 1,000 types in 100 regions the catalog does
	// not know made 170,000 findings: formatting every line to sort them
	// was 190 MB of a 250 MB peak (perf45), and sorting them by key with
	// the tied lines formatted (on demand and spot in one region) still
	// allocated ≈ 67 MB (guardmem).
	type kept struct {
		g    *Guard
		key  []byte
		line string // formatted when a tie needs it
	}
	type group struct {
		origin, rule string
		name         model.Message
		n            int
		top          []kept // the first lines so far, at most shownPerKind, in order
	}
	var groups []*group
	at := map[[2]string]*group{}
	lineOf := func(gr *group, g *Guard) string { return model.Msg("%v: %v", gr.name, g.Message()).String() }
	var key []byte // the finding's at hand
	for _, part := range found {
		for i := range part {
			g := &part[i]
			k := [2]string{g.Origin, g.Rule}
			gr := at[k]
			if gr == nil {
				name := model.Msg("embedded catalog")
				if model.FromOverlay(g.Origin) {
					name = model.Msg("catalog %s", g.Origin)
				}
				gr = &group{origin: g.Origin, rule: g.Rule, name: name}
				at[k] = gr
				groups = append(groups, gr)
			}
			gr.n++
			key = g.appendKey(key[:0])
			line := "" // g's, once formatted
			// before reports whether g's line comes before kept's: keys
			// that differ before either ends order the lines as their
			// whole text does, else the text decides; a line equal to a
			// kept one comes after it.
			before := func(kept *kept) bool {
				if !bytes.HasPrefix(key, kept.key) && !bytes.HasPrefix(kept.key, key) {
					return bytes.Compare(key, kept.key) < 0
				}
				if line == "" {
					line = lineOf(gr, g)
				}
				if kept.line == "" {
					kept.line = lineOf(gr, kept.g)
				}
				return line < kept.line
			}
			pos := len(gr.top)
			for pos > 0 && before(&gr.top[pos-1]) {
				pos--
			}
			if pos < shownPerKind {
				gr.top = slices.Insert(gr.top, pos, kept{g: g, key: slices.Clone(key), line: line})
				gr.top = gr.top[:min(len(gr.top), shownPerKind)]
			}
		}
	}
	slices.SortFunc(groups, func(a, b *group) int {
		return cmp.Or(strings.Compare(a.origin, b.origin), strings.Compare(a.rule, b.rule))
	})
	var out []model.Message
	for _, gr := range groups {
		for _, k := range gr.top {
			out = append(out, model.Msg("%v: %v", gr.name, k.g.Message()))
		}
		if more := gr.n - shownPerKind; more > 0 {
			out = append(out, moreLikeThese(gr.name, more))
		}
	}
	return out
}

// appendKey appends the start of g's line up to its message,
// "provider/type region:" (Message's format), to b: two keys that differ
// before either ends order the lines as their whole text does; the colon
// is kept so that a region that is a prefix of another ("r-1", "r-10") is
// not a prefix of its key.
func (g *Guard) appendKey(b []byte) []byte {
	b = append(append(append(b, g.Provider...), '/'), g.Type...)
	if g.Region != "" {
		b = append(append(b, ' '), g.Region...)
	}
	return append(b, ':')
}
