package data

import (
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// floorFraction is the share of a GPU's floor price below which a fetched
// price is flagged (rule "below-floor"). The floor is the lowest price per
// GPU-hour the embedded catalog lists for that GPU at any provider, spot
// and marketplace offers included: spot is already the market's lowest
// ask, so a price under half of it is a typo, a unit error (a price per
// GPU written as per instance, or per minute) or a price meant to be
// ranked first, not a discount.
const floorFraction = 0.5

// GPUFloors returns, per GPU key, the lowest USD price per GPU-hour (on
// demand or spot) of c's offered instances.
func GPUFloors(c *model.Catalog) map[string]float64 {
	out := map[string]float64{}
	for i := range c.Instances {
		in := &c.Instances[i]
		if !in.Offered() || in.GPUCount <= 0 || in.PriceCurrency() != "USD" {
			continue
		}
		for _, p := range in.Prices {
			for _, usd := range []float64{p.OnDemandUSD, p.SpotUSD} {
				if usd <= 0 {
					continue
				}
				per := usd / float64(in.GPUCount)
				if f, ok := out[in.GPU]; !ok || per < f {
					out[in.GPU] = per
				}
			}
		}
	}
	return out
}

// FloorGuards flags each price of insts (USD, per GPU-hour, on demand or
// spot) below floorFraction × its GPU's floor in floors (GPUFloors of the
// embedded catalog): rule "below-floor". A GPU without a floor (one the
// catalog has no price for) is not checked.
func FloorGuards(floors map[string]float64, insts []model.Instance) []Guard {
	var out []Guard
	for i := range insts {
		in := &insts[i]
		floor, ok := floors[in.GPU]
		if !ok || in.GPUCount <= 0 || in.PriceCurrency() != "USD" {
			continue
		}
		for _, p := range in.Prices {
			for _, m := range []struct {
				mode string
				usd  float64
			}{{"on-demand", p.OnDemandUSD}, {"spot", p.SpotUSD}} {
				if per := m.usd / float64(in.GPUCount); m.usd > 0 && per < floorFraction*floor {
					out = append(out, Guard{Provider: in.Provider, Type: in.Type, Region: p.Region, Rule: "below-floor", Origin: in.Origin, Msg: model.Msg(
						"%s %s per GPU-hour is below half the lowest %s price in the catalog (%s per GPU-hour, spot included): a fake or mistyped price?",
						model.Msg(m.mode), show.USDPerHour(per), in.GPU, show.USDPerHour(floor))})
				}
			}
		}
	}
	return out
}

// PriceRule reports whether a guard's rule is about a price (the price is
// wrong, not the shape or the name): "spot-above-on-demand",
// "below-median", "below-floor", "price-cut" and "below-peer". catalog
// update holds such prices back.
func PriceRule(rule string) bool {
	switch rule {
	case "spot-above-on-demand", "below-median", "below-floor", "price-cut", "below-peer":
		return true
	}
	return false
}
