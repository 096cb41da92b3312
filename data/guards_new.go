package data

import (
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// NewPriceGuards flags each price of insts (USD, on demand or spot) for
// a type and region base has no price for in that mode — a new type, or
// a type in a new region — below a fraction of the cheapest price per
// GPU-hour base lists for the same provider, GPU and GPU count (any type,
// any region, same mode): rule "new-price-cut". CutGuards compares a
// price only with the same type and region, so a mirror listing Lambda's
// gpu_8x_h100_sxm5 in an invented region, or as a new type, escaped it
// (attack round 15, finding 8).
//
// The fraction is cutFraction (0.5), CutGuards' rule. Measured on the
// embedded catalog (2026-12-02), leave-one-out: each USD type-and-region
// price per GPU-hour over the cheapest of the same provider, GPU and GPU
// count elsewhere; the lowest ratios are 0.542 (aws p4d.24xlarge spot in
// us-east-1), 0.559 (primeintellect's datacrunch 8×A100-40GB on demand),
// 0.587 (shadeform massedcompute L40S): no offer of the snapshot would be
// flagged at 0.5.
//
// A region the catalog's region geography (catalog/regions.toml) does not
// know for a provider it has a table for is held below the cheapest known
// price itself (fraction 1): nothing is known of such a region, so it
// cannot be the cheapest place to buy that GPU on the word of a mirror
// alone. Both are policy choices; --trust-overlay ranks what they hold.
func NewPriceGuards(base *model.Catalog, insts []model.Instance) []Guard {
	var out guardList
	newPriceGuards(base, insts, &out)
	return out.slice()
}

// newPriceGuards is NewPriceGuards adding to out.
func newPriceGuards(base *model.Catalog, insts []model.Instance, out *guardList) {
	type low struct {
		usd        [2]float64 // per GPU-hour: on demand, spot
		typ, where [2]string
	}
	var cheapest byProvider[map[int]*low] // by provider and GPU, then GPU count
	priced := map[[3]string][2]bool{}     // provider, type, region → priced on demand, spot
	// pricedTypes are the types of priced: an overlay's new types (all
	// 100,000 of a generated file's) are passed by one look-up of the
	// type, not one of a three-string key per price.
	var pricedTypes byProvider[bool]
	// The geography is read from a catalog of its own: Geo indexes the
	// catalog it is called on, and base may be the shared embedded one.
	geo := &model.Catalog{Regions: base.Regions}
	geoKnown := map[string]bool{}
	for _, pr := range base.Regions {
		geoKnown[pr.Provider] = true
	}
	for i := range base.Instances {
		in := &base.Instances[i]
		if in.PriceCurrency() != "USD" {
			continue
		}
		for _, p := range in.Prices {
			priced[[3]string{in.Provider, in.Type, p.Region}] = [2]bool{p.OnDemandUSD > 0, p.SpotUSD > 0}
			pricedTypes.set(in.Provider, in.Type, true)
		}
		if !in.Offered() || in.GPUCount <= 0 {
			continue
		}
		counts := cheapest.at(in.Provider, in.GPU)
		if counts == nil {
			counts = map[int]*low{}
			cheapest.set(in.Provider, in.GPU, counts)
		}
		c := counts[in.GPUCount]
		if c == nil {
			c = &low{}
			counts[in.GPUCount] = c
		}
		for _, p := range in.Prices {
			for m, v := range [2]float64{p.OnDemandUSD, p.SpotUSD} {
				if per := v / float64(in.GPUCount); v > 0 && (c.usd[m] == 0 || per < c.usd[m]) {
					c.usd[m], c.typ[m], c.where[m] = per, in.Type, p.Region
				}
			}
		}
	}
	// geoKnown of the last instance's provider: a file's instances share one.
	provider, providerGeo, seen := "", false, false
	for i := range insts {
		in := &insts[i]
		c := cheapest.at(in.Provider, in.GPU)[in.GPUCount]
		if c == nil || in.GPUCount <= 0 || in.PriceCurrency() != "USD" {
			continue
		}
		if !seen || in.Provider != provider {
			provider, providerGeo, seen = in.Provider, geoKnown[in.Provider], true
		}
		typePriced := pricedTypes.at(in.Provider, in.Type)
		for _, p := range in.Prices {
			var had [2]bool
			if typePriced {
				had = priced[[3]string{in.Provider, in.Type, p.Region}]
			}
			unknown, placedKnown := false, false
			for m, v := range [2]float64{p.OnDemandUSD, p.SpotUSD} {
				if v <= 0 || had[m] || c.usd[m] == 0 {
					continue
				}
				if !placedKnown { // only for a price that is new: most of a real file's are not
					_, placed := geo.Geo(in.Provider, p.Region)
					unknown, placedKnown = providerGeo && !placed, true
				}
				per, fraction := v/float64(in.GPUCount), cutFraction
				if unknown {
					fraction = 1
				}
				if per >= fraction*c.usd[m] {
					continue
				}
				out.add(Guard{Provider: in.Provider, Type: in.Type, Region: p.Region, Rule: "new-price-cut", Origin: in.Origin,
					text: newPriceText(newPrice{unknown: unknown, spot: m == 1, n: in.GPUCount, per: per, cheapest: c.usd[m], gpu: in.GPU, typ: c.typ[m], where: c.where[m]})})
			}
		}
	}
}

// newPrice is what a new-price-cut finding says, kept until it is shown
// (Guard.text): the provider and region are the finding's.
type newPrice struct {
	unknown, spot bool // a region the geography does not know; the spot price
	n             int  // GPUs
	per, cheapest float64
	gpu, typ      string
	where         string // the cheapest's region
}

func newPriceText(f newPrice) func(*Guard) model.Message {
	return func(g *Guard) model.Message {
		mode := model.Msg("on-demand")
		if f.spot {
			mode = model.Msg("spot")
		}
		if f.unknown {
			return model.Msg("%s %s per GPU-hour in %s, a region the catalog does not know for %s, is under the cheapest %s per GPU-hour it asks for %d× %s (%s in %s): a fake price? If the region is real, write the price in an overlay by hand and pass --trust-overlay",
				mode, show.USDPerHour(f.per), g.Region, g.Provider, show.USDPerHour(f.cheapest), f.n, f.gpu, f.typ, f.where)
		}
		return model.Msg("%s %s per GPU-hour, a price the catalog has no earlier one for, is under half the cheapest %s per GPU-hour %s asks for %d× %s (%s in %s): a fake or mistyped price? If it is real, write the price in an overlay by hand and pass --trust-overlay",
			mode, show.USDPerHour(f.per), show.USDPerHour(f.cheapest), g.Provider, f.n, f.gpu, f.typ, f.where)
	}
}
