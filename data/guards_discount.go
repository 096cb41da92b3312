package data

import (
	"slices"

	"github.com/gpuplan/gpuplan/model"
)

// discountGuards judges the reserved prices an overlay's [[discount]]
// makes (on-demand less its fraction, model.Catalog.ListPrice) as an
// overlay's own prices are judged: below floorFraction × the GPU's
// on-demand reference (Floors, rule "below-floor") the price is held
// (model.Discount.Held), not ranked unless --trust-overlay. Only prices
// the discount itself gives are checked (model.Catalog.DiscountFor): the
// embedded catalog's discounts are sourced. It returns a line per overlay
// saying how many it held, then the findings (summarizeGuards).
func discountGuards(c *model.Catalog) []model.Message {
	floors := baseFloors()
	var found []Guard
	count := map[string]int{}
	var order []string
	for di := range c.Discounts {
		d := &c.Discounts[di]
		if !model.FromOverlay(d.Origin) {
			continue
		}
		var g *model.GPU
		var od reference
		for i := range c.Instances {
			in := &c.Instances[i]
			if in.GPUCount <= 0 || in.PriceCurrency() != "USD" || !in.Offered() || c.DiscountFor(in, d.Term) != d {
				continue
			}
			if g == nil || g.Key != in.GPU {
				var err error
				if g, err = c.GPU(in.GPU); err != nil {
					g = nil
					continue
				}
				od, _ = floors.references(g)
			}
			for _, p := range in.Prices {
				per := p.OnDemandUSD * (1 - d.Fraction) / float64(in.GPUCount)
				if !(p.OnDemandUSD > 0 && per < floorFraction*od.usd) {
					continue
				}
				if d.Held == nil {
					d.Held = map[string]bool{}
				}
				d.Held[in.Type+" "+p.Region] = true
				if count[d.Origin] == 0 {
					order = append(order, d.Origin)
				}
				count[d.Origin]++
				found = append(found, Guard{Provider: in.Provider, Type: in.Type, Region: p.Region, Rule: "below-floor", Origin: d.Origin,
					text: floors.findingText(string(d.Term), g.Key, per, od)})
			}
		}
	}
	slices.Sort(order)
	var out []model.Message
	for _, o := range order {
		out = append(out, model.HeldCount(model.HeldDiscounts, o, count[o]))
	}
	return append(out, summarizeGuards(found)...)
}
