package data

import (
	"slices"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// floorFraction is the share of a GPU's reference price below which a
// fetched or overlaid price is flagged (rule "below-floor"): a price under
// half the lowest the whole market asks is a typo, a unit error (a price
// per GPU written as per instance, or per minute) or a price meant to be
// ranked first, not a discount.
const floorFraction = 0.5

// Capability dimensions of the below-floor guard's reference for a GPU no
// catalog offer prices (Floors): dense BF16 tensor TFLOPS, memory GiB and
// memory bandwidth GB/s, the vendor datasheet figures of model.GPU.
const (
	capTFLOPS = iota
	capGiB
	capGBps
	capDims
)

// capabilityOf returns g's datasheet capability per dimension (0 when the
// datasheet gives none, e.g. BF16 on a T4).
func capabilityOf(g *model.GPU) [capDims]float64 {
	return [capDims]float64{g.BF16TFLOPS, g.MemoryGiB, g.MemoryBandwidthGBps}
}

// unitPrice is the lowest on-demand USD per GPU-hour per unit of one
// capability dimension over the priced GPUs, and the GPU that sets it.
type unitPrice struct {
	usd float64
	gpu string
}

// Floors are the references of the below-floor guard (FloorGuards), taken
// from the embedded catalog's offered USD prices (never an overlay's nor
// a held one). The rule, per GPU and mode, USD per GPU-hour:
//   - on demand, a GPU at least marketProviders providers sell on demand:
//     the lowest on-demand price any of them asks. Spot prices are not
//     part of it: one odd spot or interruptible price ($0.80 for an H100,
//     where the lowest on-demand ask is $1.29) made the floor half of
//     that, so a fake 8×H100 at $3.30/h ($0.41) passed at a provider that
//     sells no H100;
//   - on demand, any other GPU — priced nowhere (H20, H800, L20,
//     MI325X...) or by one or two providers, whose price may be a premium
//     (the embedded RTX A5000: one provider at $1.42, where Cudo's own
//     list has $0.31) — its capability at the market's price for it: for
//     each of dense BF16 TFLOPS, memory GiB and bandwidth GB/s, the lowest
//     on-demand price per unit over the priced GPUs times this GPU's
//     datasheet figure, and the highest of the three. No priced GPU's own
//     lowest price is below any of its three (each unit price is a
//     minimum over them), so this never exceeds a same-GPU reference: one
//     rule judges both, and a GPU without a market of its own is judged
//     by the market for comparable capability rather than not at all;
//   - spot: the lowest spot price the catalog lists for the GPU, or its
//     on-demand reference when lower (a spot market above on demand);
//     for a GPU nobody sells on spot, its on-demand reference times the
//     deepest spot discount the catalog shows (lowest spot over lowest
//     on-demand price of one GPU, over the GPUs with both).
//
// A price is flagged below floorFraction × its reference. Every embedded
// price passes by construction (TestEmbeddedPricesPassFloor).
type Floors struct {
	onDemand, spot map[string]float64  // lowest per GPU key
	sellers        map[string][]string // providers selling a GPU on demand, up to marketProviders
	unit           [capDims]unitPrice
	discount       float64 // deepest spot/on-demand ratio, 0 when no GPU has both
	discountGPU    string
}

// marketProviders is how many providers must sell a GPU on demand for its
// own lowest price to be its reference: the "at least three" of the
// below-median rule.
const marketProviders = 3

// GPUFloors returns the references of c's offered USD prices (Floors),
// overlay prices and held ones left out.
func GPUFloors(c *model.Catalog) *Floors {
	f := &Floors{onDemand: map[string]float64{}, spot: map[string]float64{}, sellers: map[string][]string{}}
	low := func(m map[string]float64, k string, v float64) {
		if old, ok := m[k]; !ok || v < old {
			m[k] = v
		}
	}
	for i := range c.Instances {
		in := &c.Instances[i]
		if !in.Offered() || in.GPUCount <= 0 || in.PriceCurrency() != "USD" {
			continue
		}
		for j := range in.Prices {
			p := &in.Prices[j]
			if _, origin, _ := model.PriceProvenance(in, p); p.Held || model.FromOverlay(origin) {
				continue
			}
			if p.OnDemandUSD > 0 {
				low(f.onDemand, in.GPU, p.OnDemandUSD/float64(in.GPUCount))
				if s := f.sellers[in.GPU]; len(s) < marketProviders && !slices.Contains(s, in.Provider) {
					f.sellers[in.GPU] = append(s, in.Provider)
				}
			}
			if p.SpotUSD > 0 {
				low(f.spot, in.GPU, p.SpotUSD/float64(in.GPUCount))
			}
		}
	}
	for k, od := range f.onDemand {
		g, err := c.GPU(k)
		if err != nil {
			continue
		}
		for d, units := range capabilityOf(g) {
			if units > 0 && (f.unit[d].gpu == "" || od/units < f.unit[d].usd) {
				f.unit[d] = unitPrice{od / units, k}
			}
		}
		if sp, ok := f.spot[k]; ok && (f.discountGPU == "" || sp/od < f.discount) {
			f.discount, f.discountGPU = sp/od, k
		}
	}
	return f
}

// reference is the price a GPU's prices in one mode are judged by, and
// why (for the finding's message).
type reference struct {
	usd float64 // per GPU-hour; 0 when there is none
	// capability is set when the GPU has no same-GPU on-demand price: the
	// dimension, its units and unit price the reference comes from.
	capability bool
	sellers    int // providers selling the GPU on demand, under marketProviders
	dim        int
	units      float64
	unit       unitPrice
	discounted bool // spot: the on-demand reference less the deepest discount
}

// references returns g's on-demand and spot references (Floors).
func (f *Floors) references(g *model.GPU) (od, spot reference) {
	if v, ok := f.onDemand[g.Key]; ok && len(f.sellers[g.Key]) >= marketProviders {
		od = reference{usd: v}
	} else {
		for d, units := range capabilityOf(g) {
			if u := f.unit[d]; units > 0 && u.gpu != "" && units*u.usd > od.usd {
				od = reference{usd: units * u.usd, capability: true, sellers: len(f.sellers[g.Key]), dim: d, units: units, unit: u}
			}
		}
	}
	switch sp, ok := f.spot[g.Key]; {
	case ok:
		spot = reference{usd: sp}
		if od.usd > 0 && od.usd < sp {
			spot = od
		}
	case od.usd > 0 && f.discount > 0:
		spot = od
		spot.usd, spot.discounted = od.usd*f.discount, true
	}
	return od, spot
}

// Floor returns the lowest USD per GPU-hour the below-floor guard accepts
// for g on demand and on spot (floorFraction × its references); 0 when
// there is no reference.
func (f *Floors) Floor(g *model.GPU) (onDemand, spot float64) {
	od, sp := f.references(g)
	return floorFraction * od.usd, floorFraction * sp.usd
}

// capabilityText names units of dimension d ("96 GiB of memory") and the
// unit price ("$0.00562 per GiB-hour of memory": three figures, where the
// tables' four decimals would round most away), translatable.
func capabilityText(d int, units float64, usd float64) (model.Message, model.Message) {
	switch d {
	case capTFLOPS:
		return model.Msg("%.0f dense BF16 TFLOPS", units), model.Msg("$%.3g per dense BF16 TFLOPS-hour", usd)
	case capGiB:
		return model.Msg("%.0f GiB of memory", units), model.Msg("$%.3g per GiB-hour of memory", usd)
	}
	return model.Msg("%.0f GB/s of memory bandwidth", units), model.Msg("$%.3g per GB/s-hour of memory bandwidth", usd)
}

// finding is the below-floor message of a price per GPU-hour per in mode
// (on demand or spot) judged by ref.
func (f *Floors) finding(mode, gpu string, per float64, ref reference) model.Message {
	m := model.Msg(mode)
	switch {
	case ref.capability:
		units, price := capabilityText(ref.dim, ref.units, ref.unit.usd)
		why := model.Msg("a GPU no catalog offer prices")
		if ref.sellers > 0 {
			why = model.Msg("sold on demand by %d of the catalog's providers, too few for a market price of its own", ref.sellers)
		}
		if ref.discounted {
			return model.Msg("%s %s per GPU-hour is below half of %s per GPU-hour, what %s (%v) would cost on spot for its %v at the catalog's lowest %v (%s on demand) less the deepest spot discount the catalog shows (%.0f%% off, %s): a fake or mistyped price?",
				m, show.USDPerHour(per), show.USDPerHour(ref.usd), gpu, why, units, price, ref.unit.gpu, (1-f.discount)*100, f.discountGPU)
		}
		return model.Msg("%s %s per GPU-hour is below half of %s per GPU-hour, what %s (%v) would cost for its %v at the catalog's lowest %v (%s on demand): a fake or mistyped price?",
			m, show.USDPerHour(per), show.USDPerHour(ref.usd), gpu, why, units, price, ref.unit.gpu)
	case ref.discounted:
		return model.Msg("%s %s per GPU-hour is below half of %s per GPU-hour, the lowest on-demand price the catalog lists for %s less the deepest spot discount the catalog shows (%.0f%% off, %s): a fake or mistyped price?",
			m, show.USDPerHour(per), show.USDPerHour(ref.usd), gpu, (1-f.discount)*100, f.discountGPU)
	case mode == "spot":
		return model.Msg("%s %s per GPU-hour is below half the lowest price the catalog lists for %s (%s per GPU-hour, spot included): a fake or mistyped price?",
			m, show.USDPerHour(per), gpu, show.USDPerHour(ref.usd))
	}
	return model.Msg("%s %s per GPU-hour is below half the lowest on-demand price the catalog lists for %s (%s per GPU-hour, any provider): a fake or mistyped price?",
		m, show.USDPerHour(per), gpu, show.USDPerHour(ref.usd))
}

// findingText is finding's message made when it is shown (Guard.text).
func (f *Floors) findingText(mode, gpu string, per float64, ref reference) func(*Guard) model.Message {
	return func(*Guard) model.Message { return f.finding(mode, gpu, per, ref) }
}

// FloorGuards flags each USD price of insts (per GPU-hour, on demand,
// spot, flex-start or capacity block; the last two against the on-demand
// reference) below floorFraction × its GPU's reference in f (Floors; GPUs are
// looked up in c): rule "below-floor". Prices in another currency are
// judged once converted, at ranking time (SetCurrencyFloors). One map
// look-up per instance: a CSV overlay's 100,000 rows stay linear.
func FloorGuards(f *Floors, c *model.Catalog, insts []model.Instance) []Guard {
	var out guardList
	floorGuards(f, c, insts, &out)
	return out.slice()
}

// floorGuards is FloorGuards adding to out.
func floorGuards(f *Floors, c *model.Catalog, insts []model.Instance, out *guardList) {
	var g *model.GPU
	var od, sp reference
	// The GPUs met so far and their references: a file's types have a
	// few GPUs in any order, and each change of GPU cost a look-up of
	// the GPU and three of its references (8 ms over 100,000 types).
	type refs struct {
		name   string // Instance.GPU
		g      *model.GPU
		od, sp reference
	}
	var seen []refs
	const maxSeen = 32 // past that many GPUs, looked up as before
	for i := range insts {
		in := &insts[i]
		if in.GPUCount <= 0 || in.PriceCurrency() != "USD" || !in.Offered() {
			continue // a retired type is never ranked: its prices are not judged
		}
		if g == nil || g.Key != in.GPU {
			g = nil
			if j := slices.IndexFunc(seen, func(r refs) bool { return r.name == in.GPU }); j >= 0 {
				g, od, sp = seen[j].g, seen[j].od, seen[j].sp
			} else if gpu, err := c.GPU(in.GPU); err == nil {
				g = gpu
				od, sp = f.references(g)
				if len(seen) < maxSeen {
					seen = append(seen, refs{in.GPU, g, od, sp})
				}
			}
			if g == nil {
				continue
			}
		}
		for _, p := range in.Prices {
			for _, m := range [4]struct {
				mode string
				usd  float64
				ref  reference
			}{{"on-demand", p.OnDemandUSD, od}, {"spot", p.SpotUSD, sp},
				// Flex-start and capacity blocks are sold below on demand
				// (flex-start up to 53% off the provider's own price), never
				// below half the whole market's lowest: judged as on demand
				// (attack round 10, M1: a $0.05/h a3-highgpu-8g flex-start
				// was listed first).
				{"flex-start", p.FlexStartUSD, od}, {"capacity-block", p.CapacityBlockUSD, od}} {
				if per := m.usd / float64(in.GPUCount); m.usd > 0 && per < floorFraction*m.ref.usd {
					out.add(Guard{Provider: in.Provider, Type: in.Type, Region: p.Region, Rule: "below-floor", Origin: in.Origin,
						text: f.findingText(m.mode, g.Key, per, m.ref)})
				}
			}
		}
	}
}

// SetCurrencyFloors sets the CurrencyFloor of each instance of insts
// priced in another currency than USD (model.Instance.CurrencyFloor): the
// exchange rate is the query's, unknown here, so the below-floor rule is
// applied where the price is converted (model.HeldAt).
func SetCurrencyFloors(f *Floors, c *model.Catalog, insts []*model.Instance) {
	for _, in := range insts {
		if in.GPUCount <= 0 || in.PriceCurrency() == "USD" {
			continue
		}
		g, err := c.GPU(in.GPU)
		if err != nil {
			continue
		}
		if od, sp := f.Floor(g); od > 0 || sp > 0 {
			in.CurrencyFloor = &model.CurrencyFloor{OnDemandUSD: od, SpotUSD: sp}
		}
	}
}

// PriceRule reports whether a guard's rule is about a price (the price is
// wrong, not the shape or the name): "spot-above-on-demand",
// "below-median", "below-floor", "price-cut", "price-rise",
// "below-peer" and "new-price-cut". catalog
// update holds such prices back.
func PriceRule(rule string) bool {
	switch rule {
	case "spot-above-on-demand", "below-median", "below-floor", "price-cut", "price-rise", "below-peer", "new-price-cut":
		return true
	}
	return false
}
