package market

import (
	"cmp"
	"maps"
	"math"
	"math/bits"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gpuplan/gpuplan/model"
)

// Query is what the user browses the market by, before (or without)
// describing a workload: the filters of gpuplan catalog instances / gpuplan
// offers and of the configurator's browse screen. The zero Query
// lists every offered instance type at its cheapest on-demand region.
type Query struct {
	GPUs []GPUSpec // any of them matches (ParseGPUSpec); empty means every GPU
	// VRAMGiB bounds the memory per GPU (ParseVRAMRange), on top of GPUs.
	VRAMGiB   Bounds
	Providers []string // provider keys; empty means all (marketplaces too)
	// Regions are region names, prefixes ("us-east-1", "us-", "europe-",
	// "asia*") or continents ("europe", "eu"), the rule of model.Query.Regions;
	// empty means all.
	Regions []string
	// Countries are model.Query.Countries: ISO codes or names; empty means any.
	Countries     []string
	Pricing       model.Pricing // the price rows are filtered, ranked and collapsed by; model.OnDemand when empty
	MaxUSDPerHour float64       // whole instance, in Pricing; 0 means no limit
	Arch          model.Arch    // "" means any
	Interconnect  string        // ParseInterconnect; "" means any
	// InfiniBand keeps instances with a known GPU network between nodes
	// (InstanceFabric: InfiniBand, AWS EFA, RoCE or another RDMA network,
	// GCP's GPUDirect-TCPX/TCPXO), as --infiniband and --efa ask.
	InfiniBand bool
	Retired    bool // include instance types the provider retired
	// Held includes the overlay prices the load guards held as fake or
	// mistyped (model.RegionPrice.Held), marked (Row.Held) and ranked
	// after every other row. Without it they are left out, unless the
	// catalog trusts its overlays (model.Catalog.TrustOverlays), which
	// ranks them as any other price (still marked).
	Held bool

	Sort    Sort    // ByPrice when empty
	GroupBy GroupBy // GroupNone when empty
	// AllRegions gives one row per instance type and price instead of one
	// per instance type at its cheapest price. Grouping by region implies it.
	AllRegions bool
	// ExchangeRates are USD per unit of another currency (model.Query's);
	// rows priced in a currency without a rate are left out.
	ExchangeRates map[string]float64
}

// Row is one choice on the market: an instance type at one price in
// one pricing mode, in every region (Regions) that charges exactly that
// with the same provenance. Rows that differ only by region collapse.
type Row struct {
	Instance *model.Instance
	GPU      *model.GPU
	Pricing  model.Pricing
	Region   string   // the first of Regions, alphabetically
	Regions  []string // sorted; show len(Regions)-1 as "+N regions"
	// Offered is how many regions (after the region filter) price the type
	// in Pricing at all, so "cheapest of Offered" can be said.
	Offered    int
	USDPerHour float64 // whole instance in Pricing, in each of Regions
	// OnDemandUSD and SpotUSD are the lowest of Regions per hour for the
	// whole instance; 0 when unknown there.
	OnDemandUSD, SpotUSD float64
	// SpotVaries is set when Regions' spot prices differ (the row groups
	// regions by their price in Pricing): SpotUSD is then the lowest, not
	// Region's, and tables mark it "≥".
	SpotVaries bool
	// heldFX is set when the row's price is in another currency and the
	// query's rate converts it below the instance's floor (model.HeldAt).
	heldFX bool
	// price is the first of Regions' prices, whose provenance the row's
	// is (Provenance): 8 bytes, not three strings' 48.
	price *model.RegionPrice
	// discount is the discount a reserved price comes from
	// (model.Catalog.DiscountFor), nil otherwise.
	discount *model.Discount
	// geo is where Region is (Catalog.Geo), shared by the rows of a
	// provider's region; nil when not known (Geo).
	geo *model.RegionGeo
	// trusted is the catalog's TrustOverlays when the row was built
	// (Trusted).
	trusted bool
}

// Trusted reports whether the row's catalog trusts its overlays
// (model.Catalog.TrustOverlays): a Held price is then ranked, not held
// back, and tables say so rather than "held".
func (r *Row) Trusted() bool { return r.trusted }

// Geo returns where Region is (Catalog.Geo); zero when not known.
func (r *Row) Geo() model.RegionGeo {
	if r.geo == nil {
		return model.RegionGeo{}
	}
	return *r.geo
}

// Held reports whether the load guards held the row's price as fake or
// mistyped (model.RegionPrice.Held): tables mark it, and nothing narrows a
// search to it.
func (r *Row) Held() bool {
	return r.price != nil && (r.price.Held || r.discount.HeldFor(r.Instance.Type, r.price.Region)) || r.heldFX
}

// Provenance returns the source, origin and as_of of the row's price: the
// region's overlay when it set one, else the instance's
// (model.PriceProvenance).
func (r *Row) Provenance() (source, origin, asOf string) {
	if d := r.discount; d != nil && model.FromOverlay(d.Origin) { // a reserved price off an overlay's discount
		return d.Source, d.Origin, d.AsOf
	}
	if r.price == nil {
		return r.Instance.Source, r.Instance.Origin, r.Instance.AsOf
	}
	return model.PriceProvenance(r.Instance, r.price)
}

// Arch returns the host's CPU architecture (InstanceArch).
func (r *Row) Arch() model.Arch { return InstanceArch(r.Instance) }

// Fabric returns the GPU network between nodes (InstanceFabric), "" when
// none is known.
func (r *Row) Fabric() string { return InstanceFabric(r.Instance) }

// VRAMGiB returns the memory per GPU in GiB as the vendor states it.
func (r *Row) VRAMGiB() float64 { return r.GPU.MemoryGiB }

// TotalVRAMGiB returns the GPU memory of the whole instance, GiB.
func (r *Row) TotalVRAMGiB() float64 { return r.GPU.MemoryGiB * float64(r.Instance.GPUCount) }

// USDPerGPUHour returns the price per GPU-hour: USDPerHour ÷ GPUs.
func (r *Row) USDPerGPUHour() float64 {
	return r.USDPerHour / float64(max(r.Instance.GPUCount, 1))
}

// USDPerGiBHour returns the price per GiB of GPU memory per hour:
// USDPerHour ÷ TotalVRAMGiB; 0 when the memory is unknown.
func (r *Row) USDPerGiBHour() float64 {
	if t := r.TotalVRAMGiB(); t > 0 {
		return r.USDPerHour / t
	}
	return 0
}

// RAMPerGPUGiB returns host RAM per GPU, GiB.
func (r *Row) RAMPerGPUGiB() float64 {
	return r.Instance.MemoryGiB / float64(max(r.Instance.GPUCount, 1))
}

// VCPUsPerGPU returns vCPUs per GPU.
func (r *Row) VCPUsPerGPU() float64 {
	return float64(r.Instance.VCPUs) / float64(max(r.Instance.GPUCount, 1))
}

// Marketplace reports whether the row is a marketplace snapshot (see
// model.MarketplaceProviders): its price and availability change by the hour.
func (r *Row) Marketplace() bool {
	return slices.Contains(model.MarketplaceProviders, r.Instance.Provider)
}

// Group is one group of rows (GroupBy): its key, its rows in the
// result's order, and the range of their prices.
type Group struct {
	Key  string // GPU key, provider or region
	Rows []int  // indexes into Result.Rows, in order; len is the count
	// MinUSDPerHour–MaxUSDPerHour and MinUSDPerGPUHour–MaxUSDPerGPUHour
	// span the group's rows.
	MinUSDPerHour, MaxUSDPerHour       float64
	MinUSDPerGPUHour, MaxUSDPerGPUHour float64
	// Hidden counts the group's rows Limit left out: a header then says
	// "5 of 6 offers shown", not "5 offers" for a group of 6 (a new
	// user's walk).
	Hidden int
}

// Result is what Browse returns.
type Result struct {
	Query  Query   // with defaults filled in
	Rows   []Row   // sorted by Query.Sort
	Groups []Group // when Query.GroupBy is set: in order of each group's first row
}

// Limit keeps at most n rows (n ≤ 0: all), as recommend's --limit keeps
// its offers: the first n by the sort, or with groups the first n of
// each group, whose count and price ranges then span the rows kept
// (Group.Hidden counts the rest). It
// returns how many rows it left out (a row in two region groups counts
// in each).
func (r *Result) Limit(n int) (hidden int) {
	if n <= 0 {
		return 0
	}
	if len(r.Groups) == 0 {
		if len(r.Rows) <= n {
			return 0
		}
		hidden = len(r.Rows) - n
		r.Rows = r.Rows[:n:n]
		return hidden
	}
	keep := make([]bool, len(r.Rows))
	for gi := range r.Groups {
		g := &r.Groups[gi]
		if len(g.Rows) > n {
			g.Hidden = len(g.Rows) - n
			hidden += g.Hidden
			g.Rows = g.Rows[:n]
		}
		for _, i := range g.Rows {
			keep[i] = true
		}
	}
	if hidden == 0 {
		return 0
	}
	at := make([]int, len(r.Rows)) // old index → new
	rows := make([]Row, 0, n*len(r.Groups))
	for i := range r.Rows {
		if keep[i] {
			at[i] = len(rows)
			rows = append(rows, r.Rows[i])
		}
	}
	r.Rows = rows
	for gi := range r.Groups {
		g := &r.Groups[gi]
		for k, i := range g.Rows {
			g.Rows[k] = at[i]
			row := &r.Rows[at[i]]
			usd, perGPU := row.USDPerHour, row.USDPerGPUHour()
			if k == 0 {
				g.MinUSDPerHour, g.MaxUSDPerHour, g.MinUSDPerGPUHour, g.MaxUSDPerGPUHour = usd, usd, perGPU, perGPU
			}
			g.MinUSDPerHour, g.MaxUSDPerHour = min(g.MinUSDPerHour, usd), max(g.MaxUSDPerHour, usd)
			g.MinUSDPerGPUHour, g.MaxUSDPerGPUHour = min(g.MinUSDPerGPUHour, perGPU), max(g.MaxUSDPerGPUHour, perGPU)
		}
	}
	return hidden
}

// Size counts the instance-type × region prices in mode p, before
// any filter, so a UI can say "12 of 4,310". It depends on the catalog
// only: count once per catalog, not per keystroke.
func Size(c *model.Catalog, p model.Pricing) int {
	if p == "" {
		p = model.OnDemand
	}
	n := 0
	for i := range c.Instances {
		in := &c.Instances[i]
		for j := range in.Prices {
			if _, ok := c.ListPrice(in, &in.Prices[j], p, nil); ok {
				n++
			}
		}
	}
	return n
}

// InstanceArch returns the CPU architecture of an instance's host, as the
// catalog records it (Instance.CPUArch, set at import for Grace and
// Graviton hosts; x86_64 otherwise).
func InstanceArch(in *model.Instance) model.Arch { return model.Arch(in.Arch()) }

// InstanceFabric returns the GPU network between nodes of an instance
// type (model.Fabrics: "infiniband", "efa", "roce", "rdma",
// "gpudirect-tcpx", "gpudirect-tcpxo"), or "" when none is known: the
// catalog entry's fabric, which its source states (data/catalog,
// gencatalog tables.go).
func InstanceFabric(in *model.Instance) string { return in.Fabric }

// instancePred is one instance-level filter of the market.
type instancePred func(in *model.Instance, g *model.GPU) bool

// predicates turns the query's instance-level filters into a slice of
// funcs, so that a new filter (a new catalog field) is one more append.
func (q *Query) predicates() []instancePred {
	var ps []instancePred
	if !q.Retired {
		ps = append(ps, func(in *model.Instance, _ *model.GPU) bool { return in.Offered() })
	}
	if len(q.Providers) > 0 {
		ps = append(ps, func(in *model.Instance, _ *model.GPU) bool { return slices.Contains(q.Providers, in.Provider) })
	}
	if len(q.GPUs) > 0 {
		ps = append(ps, func(in *model.Instance, g *model.GPU) bool {
			for i := range q.GPUs {
				if q.GPUs[i].Matches(g, in.GPUCount) {
					return true
				}
			}
			return false
		})
	}
	if !q.VRAMGiB.Any() {
		ps = append(ps, func(_ *model.Instance, g *model.GPU) bool { return q.VRAMGiB.Contains(g.MemoryGiB) })
	}
	if q.Arch != "" {
		ps = append(ps, func(in *model.Instance, _ *model.GPU) bool { return InstanceArch(in) == q.Arch })
	}
	if q.Interconnect != "" {
		ps = append(ps, func(in *model.Instance, _ *model.GPU) bool { return interconnectIs(in, q.Interconnect) })
	}
	if q.InfiniBand {
		ps = append(ps, func(in *model.Instance, _ *model.GPU) bool { return InstanceFabric(in) != "" })
	}
	return ps
}

// interconnectIs applies the interconnect filter: "nvlink" accepts NVSwitch
// too (NVSwitch connects GPUs by NVLink), "fast" anything beyond PCIe.
func interconnectIs(in *model.Instance, want string) bool {
	switch want {
	case LinkFast:
		return in.FastInterconnect()
	case LinkNVLink:
		return in.Interconnect == LinkNVLink || in.Interconnect == LinkNVSwitch
	}
	return in.Interconnect == want
}

// validate checks the names that can be typos against the catalog: an
// unknown provider, or a region filter that matches no region at all. It
// stops at the first match, so a valid filter costs little on a large
// overlay; the full list is built only for the did-you-mean.
func (q *Query) validate(c *model.Catalog) error {
	if q.MaxUSDPerHour < 0 {
		return BadFilter("max price %g: want USD per hour above 0", q.MaxUSDPerHour)
	}
	for _, p := range q.Providers {
		if !slices.ContainsFunc(c.Instances, func(in model.Instance) bool { return in.Provider == p }) {
			all := map[string]bool{}
			for i := range c.Instances {
				all[c.Instances[i].Provider] = true
			}
			if now, ok := model.RenamedProvider(p); ok && all[now] { // datacrunch is verda
				return &filterError{model.RenamedProviderMsg(p, now)}
			}
			return unknownName("provider", p, sortedKeys(all), model.Msg("gpuplan catalog instances"))
		}
	}
	// One check and one wording with recommend's (model.CheckRegionWords):
	// a country code is the regions there, a country name or a near-miss
	// continent is named as such.
	if m := model.CheckCountryWords("--country", q.Countries); !m.IsZero() {
		return &filterError{m}
	}
	if m := model.CheckRegionWords(c, "--regions", q.Regions); !m.IsZero() {
		return &filterError{m}
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func unknownName(what, name string, valid []string, list model.Message) error {
	if s := model.Closest(name, valid, 3); len(s) > 0 {
		return BadFilter("unknown %s %q; did you mean %s? (list them with %s)", model.Msg(what), name, orMsg(s), list)
	}
	return BadFilter("unknown %s %q (list them with %s)", model.Msg(what), name, list)
}

// regionPrice is one region's price of the instance being collapsed.
// It holds no pointers, so that sorting it needs no GC write barriers.
type regionPrice struct {
	price float64
	j     int32 // index into Instance.Prices
	// beside is set for the price listed beside Instance.Prices[j]
	// (model.RegionPrice.Beside): the embedded price a held overlay price
	// covers, or the held price UseEmbeddedForHeld put the embedded one
	// back over.
	beside bool
}

// of returns the region price p is of in in.
func (p regionPrice) of(in *model.Instance) *model.RegionPrice {
	if p.beside {
		return in.Prices[p.j].Beside
	}
	return &in.Prices[p.j]
}

// Browse lists the market: every instance type of c that passes q's
// filters, one row per choice (instance type and price; regions at the
// same price and provenance collapse into one row), sorted by q.Sort with
// ties broken by price, provider, type and region so the order is
// deterministic. By default each instance type appears once, at its
// cheapest price in q.Pricing; AllRegions lists each of its prices.
// Reserved prices apply the provider's published discount (Catalog.Price).
// Rows need a price in q.Pricing; an instance type without one is not on
// that market. Errors (unknown provider, a region filter that matches no
// region) match ErrBadFilter and suggest the nearest names. To browse the
// same catalog again and again (a screen, per keystroke), keep a Market.
func Browse(c *model.Catalog, q Query) (Result, error) {
	m := New(c)
	m.once = true
	return m.Browse(q)
}

// Market browses one catalog many times: what a query's filters cannot
// change is kept between calls, so a keystroke over a large overlay
// filters rows instead of rebuilding and re-sorting them (and, by View,
// copies none). It keeps, per pricing mode, region filter, all-regions
// switch and exchange rates (a "base"), every instance type's collapsed
// rows, and per sort key their order; the instance filters, the price
// limit and the grouping are applied per call in one pass each. The catalog must not change while a
// Market is in use. Safe for concurrent use.
type Market struct {
	c     *model.Catalog
	mu    sync.Mutex
	bases []*marketBase // most recently used first, at most marketBases
	// once marks a Market for one query (Browse): its base holds only the
	// instance types that pass that query's filters, as nothing reuses it.
	once bool
}

// marketBases bounds the bases a Market keeps: a 100k-row base is about
// 15 MB, and typing a region filter makes a new one per keystroke.
const marketBases = 3

// New returns a Market over c; it computes nothing until Browse.
func New(c *model.Catalog) *Market { return &Market{c: c} }

// marketBase is the market under one row-building part of a query:
// every instance type's rows (instance filters and the price limit not
// applied; retired types too), in catalog order. Read only once built,
// except orders, which Market.mu guards.
type marketBase struct {
	pricing    model.Pricing
	regions    []string
	countries  []string
	allRegions bool
	rates      map[string]float64
	// trust is the catalog's TrustOverlays when built: held prices rank
	// as any other (Query.Held).
	trust bool

	rows []Row   // Offered counts the regions before the price limit
	inst []int32 // index into Catalog.Instances of each row
	// The group keys as dense ids, so that grouping indexes slices
	// instead of hashing strings: per row its GPU's and provider's, per
	// pool entry (parallel to the rows' Regions) its region's.
	gpuID, providerID []int32
	regionID          []int32 // parallel to the pool behind rows' Regions
	regionAt          []int32 // per row: offset of its Regions in regionID
	regionEnd         []int32 // per row: the end of its Regions in regionID
	names             [3][]string
	// price is per row its USDPerHour and USDPerGPUHour, packed: grouping
	// spans them in sort order, and 16 bytes a row stay in cache where
	// 152-byte rows (and their instances) read out of order do not.
	price []rowPrice
	// offerUSD holds, per instance type, the prices of every region that
	// offers it (Offered of them), ascending; offerAt is each row's
	// window start. A price limit counts Offered within it by binary
	// search instead of re-pricing each region.
	offerUSD []float64
	offerAt  []int32
	orders   map[Sort][]int32 // per sort key: rows in that order
	// sorted are the rows of filter in order k: a sort or group change
	// of the same filters shares them instead of filtering again. Kept
	// for the most recent base only; views hold on to theirs.
	sorted map[Sort]*marketSel
	filter Query // with Sort and GroupBy cleared
}

// marketSel is the base's rows that pass one filter, in one order, as
// indexes: no wide row is copied for it. A row whose Offered the price
// limit changes is the one copied, into own.
type marketSel struct {
	keep  []int32 // indexes into marketBase.rows, in order
	own   []Row   // copies of rows with Offered counted within the price limit
	ownAt []int32 // per keep: index into own, or -1; nil when own is empty
}

// row returns the k-th selected row: the base's, or its copy in own.
func (s *marketSel) row(b *marketBase, k int) *Row {
	if s.ownAt != nil {
		if o := s.ownAt[k]; o >= 0 {
			return &s.own[o]
		}
	}
	return &b.rows[s.keep[k]]
}

// View is Market.View's result: Result without the copy of
// its rows, which a screen reads a page of at a time. Row(k) is the k-th
// of what Browse's Rows would be; Groups index rows the same way.
type View struct {
	Query  Query
	Groups []Group
	b      *marketBase
	sel    *marketSel
}

// Len returns the number of rows.
func (v *View) Len() int {
	if v.sel == nil {
		return 0
	}
	return len(v.sel.keep)
}

// Row returns the k-th row, 0 <= k < Len(). It is shared with the Market
// and other views: read it, do not write.
func (v *View) Row(k int) *Row { return v.sel.row(v.b, k) }

func (b *marketBase) matches(q *Query) bool {
	return b.pricing == q.Pricing && b.allRegions == q.AllRegions && slices.Equal(b.regions, q.Regions) && slices.Equal(b.countries, q.Countries) &&
		maps.Equal(b.rates, q.ExchangeRates)
}

// base returns the base of q, built when no kept one matches.
func (m *Market) base(q *Query) *marketBase {
	for i, b := range m.bases {
		if b.matches(q) {
			if i > 0 {
				m.bases[0].forget() // only the front base keeps copies
			}
			copy(m.bases[1:i+1], m.bases[:i])
			m.bases[0] = b
			return b
		}
	}
	var only []instancePred
	limit := 0.0
	if m.once {
		only, limit = q.predicates(), q.MaxUSDPerHour
	}
	b := buildBase(m.c, q, only, limit)
	if len(m.bases) > 0 {
		m.bases[0].forget()
	}
	if len(m.bases) < marketBases {
		m.bases = append(m.bases, nil)
	}
	copy(m.bases[1:], m.bases)
	m.bases[0] = b
	return b
}

// buildBase collapses every instance type's prices in q.Pricing, in the
// regions q.Regions matches, into rows (appendCollapsed); for one query
// (Market.once), only of the types that pass only, within limit USD/h.
func buildBase(c *model.Catalog, q *Query, only []instancePred, limit float64) *marketBase {
	b := &marketBase{
		pricing: q.Pricing, regions: slices.Clone(q.Regions), countries: slices.Clone(q.Countries), allRegions: q.AllRegions, rates: maps.Clone(q.ExchangeRates),
		orders: map[Sort][]int32{}, sorted: map[Sort]*marketSel{}, trust: c.TrustOverlays,
	}
	rf := model.NewRegionFilter(c, q.Regions, q.Countries)
	var prices []regionPrice // scratch, reused per instance
	// Every row's Regions is a window of one pool: one allocation, not one
	// per row. Windows are recorded as offsets while the pool grows.
	var pool []string
	var spans [][2]int32
	if !q.AllRegions {
		// Room for a row per instance type that passes, the usual count
		// at its cheapest price: grown by doubling, 100,000 rows of 224
		// bytes ended in a 29 MB array after a 15 MB one.
		// The per-row and per-price tables too, each at most a price of
		// a type that passes: grown by append, 100,000 rows' pool, spans
		// and offers allocated ~10 MB for their final ~4.
		n, np := 0, 0
		for i := range c.Instances {
			in := &c.Instances[i]
			if g, err := c.GPU(in.GPU); err == nil && !slices.ContainsFunc(only, func(p instancePred) bool { return !p(in, g) }) {
				n++
				np += len(in.Prices)
			}
		}
		b.rows = make([]Row, 0, n)
		b.inst, b.offerAt, spans = make([]int32, 0, n), make([]int32, 0, n), make([][2]int32, 0, n)
		b.offerUSD, pool = make([]float64, 0, np), make([]string, 0, np)
	}
	for i := range c.Instances {
		in := &c.Instances[i]
		g, err := c.GPU(in.GPU)
		if err != nil {
			continue // data.Load rejects these; an unchecked catalog may not
		}
		if slices.ContainsFunc(only, func(p instancePred) bool { return !p(in, g) }) {
			continue
		}
		prices = prices[:0]
		for j := range in.Prices {
			rp := &in.Prices[j]
			if !rf.Match(in.Provider, rp.Region) {
				continue
			}
			if usd, ok := c.ListPrice(in, rp, q.Pricing, q.ExchangeRates); ok && (limit <= 0 || usd <= limit) {
				prices = append(prices, regionPrice{price: usd, j: int32(j)})
			}
			// A held overlay price hides no embedded price (model.HeldPricesEmbedded):
			// unless trusted, the price beside it is listed too, so that the
			// rows with Query.Held are a superset of those without: the
			// embedded one ranked, the held one last, marked (Row.Held).
			if b := rp.Beside; b != nil && !c.TrustOverlays {
				if usd, ok := c.ListPrice(in, b, q.Pricing, q.ExchangeRates); ok && (limit <= 0 || usd <= limit) {
					prices = append(prices, regionPrice{price: usd, j: int32(j), beside: true})
				}
			}
		}
		if len(prices) == 0 {
			continue
		}
		if len(b.rows) == cap(b.rows) {
			// Doubled here: append grows large slices by 1.25×, which
			// copied 100k wide rows about five times over.
			b.rows = slices.Grow(b.rows, max(cap(b.rows), 64))
		}
		at := int32(len(b.offerUSD))
		for _, p := range prices {
			b.offerUSD = append(b.offerUSD, p.price)
		}
		if len(prices) > 1 { // one price, the usual row of a CSV overlay, is sorted
			slices.Sort(b.offerUSD[at:])
		}
		n := len(b.rows)
		b.rows, pool, spans = appendCollapsed(b.rows, pool, spans, in, g, q, prices, c.TrustOverlays, c.DiscountFor(in, q.Pricing)) // reorders prices
		for range len(b.rows) - n {
			b.inst = append(b.inst, int32(i))
			b.offerAt = append(b.offerAt, at)
		}
	}
	ids := [3]map[string]int32{{}, {}, {}}
	id := func(k int, s string) int32 {
		v, ok := ids[k][s]
		if !ok {
			v = int32(len(b.names[k]))
			ids[k][s] = v
			b.names[k] = append(b.names[k], s)
		}
		return v
	}
	b.gpuID, b.providerID, b.regionAt = make([]int32, len(b.rows)), make([]int32, len(b.rows)), make([]int32, len(b.rows))
	b.regionID = make([]int32, len(pool))
	b.price, b.regionEnd = make([]rowPrice, len(b.rows)), make([]int32, len(b.rows))
	// One RegionGeo per provider's region, not 64 bytes in every row.
	geos := map[[2]string]*model.RegionGeo{}
	for i := range b.rows {
		r := &b.rows[i]
		r.Regions = pool[spans[i][0]:spans[i][1]:spans[i][1]]
		r.Region = r.Regions[0]
		k := [2]string{r.Instance.Provider, r.Region}
		geo, seen := geos[k]
		if !seen {
			if g, ok := c.Geo(k[0], k[1]); ok {
				geo = &g
			}
			geos[k] = geo
		}
		r.geo = geo
		b.gpuID[i], b.providerID[i], b.regionAt[i] = id(0, r.GPU.Key), id(1, r.Instance.Provider), spans[i][0]
		b.price[i], b.regionEnd[i] = rowPrice{r.USDPerHour, r.USDPerGPUHour()}, spans[i][1]
	}
	for j, reg := range pool {
		b.regionID[j] = id(2, reg)
	}
	return b
}

// rowPrice is a row's USDPerHour and USDPerGPUHour.
type rowPrice struct{ usd, perGPU float64 }

// forget drops the filtered copies of the base's rows.
func (b *marketBase) forget() {
	clear(b.sorted)
	b.filter = Query{}
}

// order returns the base's rows in sort order k (sortOrder), computed
// once per key. Call with Market.mu held.
func (b *marketBase) order(k Sort) []int32 {
	o, ok := b.orders[k]
	if !ok {
		o = sortOrder(b.rows, k, b.trust)
		b.orders[k] = o
	}
	return o
}

// Browse is Browse over the Market's catalog, reusing what earlier calls
// built: the result is the same. A screen that shows a page of rows at a
// time calls View instead, which copies none.
func (m *Market) Browse(q Query) (Result, error) {
	v, err := m.View(q)
	res := Result{Query: v.Query, Groups: v.Groups}
	if err != nil {
		return res, err
	}
	if m.once && v.sel.ownAt == nil && v.Len() > 0 {
		// Nothing reuses a one-query base: its rows move into order in
		// place instead of being copied (100,000 rows are 22 MB).
		res.Rows = gatherInPlace(v.b.rows, v.sel.keep)
		v.b.rows = nil
		return res, nil
	}
	res.Rows = make([]Row, v.Len())
	for k := range res.Rows {
		res.Rows[k] = *v.Row(k)
	}
	return res, nil
}

// gatherInPlace moves rows[keep[k]] to rows[k] for each k, in place, and
// returns rows[:len(keep)]; keep's indexes are distinct. The rows keep
// does not name fill the positions after it, so that "position p takes
// the row at src[p]" is a permutation, applied one cycle at a time.
func gatherInPlace(rows []Row, keep []int32) []Row {
	n := len(keep)
	src := make([]int32, len(rows))
	copy(src, keep)
	seen := make([]bool, len(rows))
	for _, i := range keep {
		seen[i] = true
	}
	k := n
	for i := range rows {
		if !seen[i] {
			src[k] = int32(i)
			k++
		}
	}
	clear(seen)
	for p := range rows {
		if seen[p] {
			continue
		}
		tmp := rows[p]
		for q := p; ; {
			seen[q] = true
			from := int(src[q])
			if from == p {
				rows[q] = tmp
				break
			}
			rows[q] = rows[from]
			q = from
		}
	}
	return rows[:n:n]
}

// WithDefaults is q as View reads it: on-demand pricing and the price
// order unless given, every region when grouped by region. A caller can
// say what a browse on its way is for before its rows come.
func (q Query) WithDefaults() Query {
	if q.Pricing == "" {
		q.Pricing = model.OnDemand
	}
	if q.Sort == "" {
		q.Sort = ByPrice
	}
	if q.GroupBy == GroupRegion {
		q.AllRegions = true
	}
	return q
}

// View is Browse without copying the rows: the filters and order of q
// over the Market's kept rows. A sort or group change of the same filters
// reuses the selection.
func (m *Market) View(q Query) (View, error) {
	c := m.c
	q = q.WithDefaults()
	if err := q.validate(c); err != nil {
		return View{Query: q}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock() // held throughout: two browses at once only share the 2 cores
	b := m.base(&q)
	order := b.order(q.Sort)

	filter := q
	filter.Sort, filter.GroupBy = "", ""
	if !reflect.DeepEqual(filter, b.filter) {
		clear(b.sorted)
		b.filter = filter
	}
	sel, ok := b.sorted[q.Sort]
	if !ok {
		sel = filterRows(b, order, &q)
		b.sorted[q.Sort] = sel
	}
	v := View{Query: q, b: b, sel: sel}
	if q.GroupBy != GroupNone {
		v.Groups = groupMarket(&v, q.GroupBy)
	}
	return v, nil
}

// filterRows returns the base's rows that pass q's instance filters and
// price limit, in order, and their indexes. The filters run over the base
// in catalog order, where rows and instances lie in memory as they are
// read; the order then only looks up pass. Providers match by id.
func filterRows(b *marketBase, order []int32, q *Query) *marketSel {
	pq := *q
	pq.Providers = nil
	preds := pq.predicates()
	var providerOK []bool
	if len(q.Providers) > 0 {
		providerOK = make([]bool, len(b.names[1]))
		for id, name := range b.names[1] {
			providerOK[id] = slices.Contains(q.Providers, name)
		}
	}
	pass := make([]bool, len(b.rows))
	n := 0
rows:
	for i := range b.rows {
		r := &b.rows[i]
		if q.MaxUSDPerHour > 0 && r.USDPerHour > q.MaxUSDPerHour || providerOK != nil && !providerOK[b.providerID[i]] ||
			r.Held() && !q.Held && !b.trust {
			continue
		}
		for _, p := range preds {
			if !p(r.Instance, r.GPU) {
				continue rows
			}
		}
		pass[i] = true
		n++
	}
	keep := make([]int32, 0, n)
	for _, i := range order {
		if pass[i] {
			keep = append(keep, i)
		}
	}
	sel := &marketSel{keep: keep}
	if q.MaxUSDPerHour > 0 { // Offered counts the regions within the limit
		for k, i := range keep {
			// A row that holds every region offered has them all at its
			// price, within the limit: only the others need counting.
			r := &b.rows[i]
			if r.Offered == len(r.Regions) {
				continue
			}
			at := b.offerAt[i]
			offers := b.offerUSD[at : at+int32(r.Offered)]
			n := sort.Search(len(offers), func(j int) bool { return offers[j] > q.MaxUSDPerHour })
			if n != r.Offered {
				if sel.ownAt == nil {
					sel.ownAt = make([]int32, len(keep))
					for j := range sel.ownAt {
						sel.ownAt[j] = -1
					}
				}
				sel.ownAt[k] = int32(len(sel.own))
				sel.own = append(sel.own, *r)
				sel.own[len(sel.own)-1].Offered = n
			}
		}
	}
	return sel
}

// appendCollapsed appends one row per (price, provenance) of the instance
// type's regions; unless q.AllRegions, only those at its cheapest price.
// Unless trust (model.Catalog.TrustOverlays), prices the guards held
// (model.RegionPrice.Held) never collapse with others, nor hide the
// cheapest price they undercut: that is the cheapest of the others.
// Each row's regions go to pool, their window to spans.
func appendCollapsed(rows []Row, pool []string, spans [][2]int32, in *model.Instance, g *model.GPU, q *Query, prices []regionPrice, trust bool, disc *model.Discount) ([]Row, []string, [][2]int32) {
	offered := len(prices)
	held := func(p regionPrice) bool {
		rp := p.of(in)
		return !trust && (model.HeldAt(in, rp, q.ExchangeRates) || disc.HeldFor(in.Type, rp.Region))
	}
	if !q.AllRegions { // keep the cheapest only (of each kind): one pass, then a sort of a few
		var least [2]float64
		var seen [2]bool
		for _, p := range prices {
			k := b2i(held(p))
			if !seen[k] || p.price < least[k] {
				least[k], seen[k] = p.price, true
			}
		}
		n := 0
		for _, p := range prices {
			if p.price == least[b2i(held(p))] {
				prices[n] = p
				n++
			}
		}
		prices = prices[:n]
	}
	slices.SortFunc(prices, func(a, b regionPrice) int {
		if c := cmp.Compare(b2i(held(a)), b2i(held(b))); c != 0 {
			return c
		}
		if c := cmp.Compare(a.price, b.price); c != 0 {
			return c
		}
		ra, rb := a.of(in), b.of(in)
		if ra.Patch != rb.Patch {
			as, ao, _ := model.PriceProvenance(in, ra)
			bs, bo, _ := model.PriceProvenance(in, rb)
			if c := strings.Compare(as, bs); c != 0 {
				return c
			}
			if c := strings.Compare(ao, bo); c != 0 {
				return c
			}
		}
		return strings.Compare(ra.Region, rb.Region)
	})
	for start := 0; start < len(prices); {
		first := prices[start].of(in)
		src, origin, _ := model.PriceProvenance(in, first)
		end := start + 1
		for end < len(prices) && prices[end].price == prices[start].price && held(prices[end]) == held(prices[start]) {
			if s, o, _ := model.PriceProvenance(in, prices[end].of(in)); s != src || o != origin {
				break
			}
			end++
		}
		row := Row{
			Instance: in, GPU: g, Pricing: q.Pricing, Offered: offered, USDPerHour: prices[start].price,
			price: first, heldFX: !first.Held && model.HeldAt(in, first, q.ExchangeRates), discount: disc, trusted: trust,
		}
		from := int32(len(pool))
		for _, p := range prices[start:end] {
			rp := p.of(in)
			pool = append(pool, rp.Region)
			row.OnDemandUSD = lowestKnown(row.OnDemandUSD, rp.OnDemandUSD)
			row.SpotVaries = row.SpotVaries || rp.SpotUSD != first.SpotUSD
			row.SpotUSD = lowestKnown(row.SpotUSD, rp.SpotUSD)
		}
		rows = append(rows, row)
		spans = append(spans, [2]int32{from, int32(len(pool))})
		start = end
	}
	return rows, pool, spans
}

// lowestKnown returns the lower of two prices where 0 means unknown.
func lowestKnown(have, v float64) float64 {
	if v > 0 && (have == 0 || v < have) {
		return v
	}
	return have
}

// marketKey returns the value a row sorts by, lower first: prices as
// they are, sizes negated so that the largest comes first.
func marketKey(r *Row, k Sort) float64 {
	switch k {
	case ByGPUPrice:
		return r.USDPerGPUHour()
	case ByVRAMPrice:
		return r.USDPerGiBHour()
	case ByVCPUs:
		return -float64(r.Instance.VCPUs)
	case ByRAM:
		return -r.Instance.MemoryGiB
	case ByVRAM:
		return -r.GPU.MemoryGiB
	}
	return r.USDPerHour
}

// sortOrder returns the indexes of rows sorted by k, then price,
// provider, type, region and index; unless trust, held rows (Row.Held)
// come after all others. Each row is one integer, its held bit, the high
// bits of its key's order (floatOrder) and its index, so one sort of
// integers, without a comparison function, orders all but the rows
// whose truncated keys tie; those few runs are sorted by the whole
// comparison (as parser.sortRuns in data does; a comparison function
// over 100,000 rows was a twentieth of offers --json).
func sortOrder(rows []Row, k Sort, trust bool) []int32 {
	n := len(rows)
	out := make([]int32, n)
	if n == 0 {
		return out
	}
	keys := make([]float64, n)
	ibits := bits.Len(uint(n - 1))
	mask := uint64(1)<<ibits - 1
	order := make([]uint64, n)
	for i := range rows {
		keys[i] = marketKey(&rows[i], k)
		var held uint64
		if !trust && rows[i].Held() {
			held = 1 << 63 // ranked after every other row
		}
		order[i] = held | floatOrder(keys[i])>>(1+ibits)<<ibits | uint64(i)
	}
	slices.Sort(order)
	full := func(a, b uint64) int {
		i, j := int(a&mask), int(b&mask)
		if c := cmp.Compare(keys[i], keys[j]); c != 0 {
			return c
		}
		if c := cmp.Compare(rows[i].USDPerHour, rows[j].USDPerHour); c != 0 {
			return c
		}
		ra, rb := &rows[i], &rows[j]
		if c := strings.Compare(ra.Instance.Provider, rb.Instance.Provider); c != 0 {
			return c
		}
		if c := strings.Compare(ra.Instance.Type, rb.Instance.Type); c != 0 {
			return c
		}
		if c := strings.Compare(ra.Region, rb.Region); c != 0 {
			return c
		}
		return cmp.Compare(i, j) // same row data twice (duplicate catalog entries): keep catalog order
	}
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && order[hi]&^mask == order[lo]&^mask {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(order[lo:hi], full)
		}
		lo = hi
	}
	for i, e := range order {
		out[i] = int32(e & mask)
	}
	return out
}

// floatOrder maps x to an integer in cmp.Compare's order of float64s: a
// NaN first, then -Inf up to +Inf, -0 and +0 as one.
func floatOrder(x float64) uint64 {
	if x != x {
		return 0
	}
	if x == 0 {
		x = 0 // -0 as +0
	}
	b := math.Float64bits(x)
	if b>>63 == 1 {
		return ^b // negative: a larger magnitude is smaller
	}
	return b | 1<<63
}

// groupMarket groups a view's rows (base rows keep, in order) by key; a
// row counts in each of its regions when grouping by region. Groups come
// in the order of their first row, so the best group under the sort key
// is first. Two passes over the base's dense key ids: one to find the
// groups, count and span their prices, one to fill their Rows, which
// share one backing array.
func groupMarket(v *View, by GroupBy) []Group {
	b, keep := v.b, v.sel.keep
	var names []string
	ids := func(i int32) []int32 { return nil }
	switch by {
	case GroupGPU:
		names, ids = b.names[0], func(i int32) []int32 { return b.gpuID[i : i+1] }
	case GroupProvider:
		names, ids = b.names[1], func(i int32) []int32 { return b.providerID[i : i+1] }
	case GroupRegion:
		names = b.names[2]
		ids = func(i int32) []int32 {
			return b.regionID[b.regionAt[i]:b.regionEnd[i]]
		}
	}
	groupOf := make([]int32, len(names)) // group index + 1; 0: none yet
	last := make([]int32, len(names))    // the last row counted in the key's group + 1
	var groups []Group
	counts := []int{}
	total := 0
	for k, i := range keep {
		r := b.price[i] // a copy in v's own differs only in Offered
		for _, id := range ids(i) {
			if last[id] == int32(k)+1 {
				continue // a row listed twice in one region group
			}
			last[id] = int32(k) + 1
			gi := groupOf[id] - 1
			if gi < 0 {
				gi = int32(len(groups))
				groupOf[id] = gi + 1
				groups = append(groups, Group{Key: names[id], MinUSDPerHour: r.usd, MaxUSDPerHour: r.usd,
					MinUSDPerGPUHour: r.perGPU, MaxUSDPerGPUHour: r.perGPU})
				counts = append(counts, 0)
			}
			g := &groups[gi]
			counts[gi]++
			total++
			g.MinUSDPerHour, g.MaxUSDPerHour = min(g.MinUSDPerHour, r.usd), max(g.MaxUSDPerHour, r.usd)
			g.MinUSDPerGPUHour, g.MaxUSDPerGPUHour = min(g.MinUSDPerGPUHour, r.perGPU), max(g.MaxUSDPerGPUHour, r.perGPU)
		}
	}
	backing := make([]int, 0, total)
	for gi := range groups {
		n := len(backing)
		backing = backing[:n+counts[gi]]
		groups[gi].Rows = backing[n : n : n+counts[gi]]
	}
	clear(last)
	for k, i := range keep {
		for _, id := range ids(i) {
			if last[id] == int32(k)+1 {
				continue
			}
			last[id] = int32(k) + 1
			g := &groups[groupOf[id]-1]
			g.Rows = append(g.Rows, k)
		}
	}
	return groups
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
