package plan

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// planPriceTolerance is how far a phase's usd_per_hour may sit from the
// catalog's price before Check says so: rounding in the file (four
// decimals) and a refresh's cents, not a different offer.
const planPriceTolerance = 0.01

// Check compares each phase's offer with cat and returns what a
// reader of the plan's total should know, in phase order: an instance
// type the catalog does not have (a typo, or a private offer), one
// retired, a region or pricing mode it has no price for, and a
// usd_per_hour more than 1% from the catalog's price for the same
// instance count. The plan still prices with its own figures (a
// negotiated price is the user's to give); these are notes, not errors.
// Prices in a currency without a rate are not compared.
func Check(cat *model.Catalog, pl *Plan) []model.Message {
	var out []model.Message
	for i := range pl.Phases {
		ph := &pl.Phases[i]
		if ph.Provider == "" || ph.Instance == "" {
			// Nothing to look up: "phase "a":   is not in the catalog"
			// printed the two empty names as blanks.
			out = append(out, model.Msg("phase %q names no offer (provider and instance): the plan's price for it is unchecked", ph.Name))
			continue
		}
		in := instanceOf(cat, ph)
		switch {
		case in == nil:
			if m, ok := lookAlike(cat, ph); ok {
				out = append(out, m)
				continue
			}
			if near := nearOffer(cat, ph); len(near) > 0 {
				out = append(out, model.Msg("phase %q: %s %s is not in the catalog (as of %s): the plan's price for it is unchecked; did you mean %s?", ph.Name, ph.Provider, ph.Instance, cat.AsOf, model.OrMsg(near)))
				continue
			}
			out = append(out, model.Msg("phase %q: %s %s is not in the catalog (as of %s): the plan's price for it is unchecked", ph.Name, ph.Provider, ph.Instance, cat.AsOf))
			continue
		case in.Retired != "":
			out = append(out, model.Msg("phase %q: %s %s was retired on %s", ph.Name, ph.Provider, ph.Instance, in.Retired))
			continue
		case in.MissingSince != "":
			out = append(out, model.Msg("phase %q: %s %s is not in the latest price fetch (missing since %s): the plan's price for it is unchecked", ph.Name, ph.Provider, ph.Instance, in.MissingSince))
			continue
		}
		if ph.Region == "" {
			// walk49: "has no price for lambda gpu_8x_h100_sxm5 in " ended
			// where the region should be and never said it was missing.
			out = append(out, noRegion(cat, in, ph))
			continue
		}
		var rp *model.RegionPrice
		for j := range in.Prices {
			if in.Prices[j].Region == ph.Region {
				rp = &in.Prices[j]
			}
		}
		if rp == nil {
			// A region that reads as one the type is priced in (us-centrаl1
			// with a Cyrillic а) is said so, as a provider or type is
			// (attack r29: only "no price" was said).
			if r, ok := regionLookAlike(in, ph.Region); ok {
				out = append(out, model.Msg("phase %q: %s %s region %s reads as %s but is another name (a look-alike character?): the plan's price for it is unchecked; spell it as the catalog does", ph.Name, ph.Provider, ph.Instance, quoteShown(ph.Region), quoteShown(r)))
				continue
			}
			out = append(out, model.Msg("phase %q: the catalog has no price for %s %s in %s", ph.Name, ph.Provider, ph.Instance, ph.Region))
			continue
		}
		if in.PriceCurrency() != "USD" {
			continue
		}
		pricing := cmp.Or(ph.Pricing, model.OnDemand) // a phase without a mode is compared as the search's default
		unit, ok := cat.Price(in, rp, pricing, nil)
		if !ok {
			out = append(out, model.Msg("phase %q: the catalog has no %s price for %s %s in %s", ph.Name, model.Msg(string(pricing)), ph.Provider, ph.Instance, ph.Region))
			continue
		}
		want := unit * float64(max(ph.Instances, 1))
		if math.Abs(ph.USDPerHour-want) > planPriceTolerance*want {
			out = append(out, model.Msg("phase %q: the plan prices %s %s in %s (%s) at $%.4g/h; the catalog (as of %s) says $%.4g/h", ph.Name, ph.Provider, ph.Instance, ph.Region, model.Msg(string(pricing)), ph.USDPerHour, cat.AsOf, want))
		}
	}
	return out
}

// lookAlike says when a phase's provider or instance type, not in cat,
// reads as one of cat's once case, accents and look-alike characters
// are set aside (show.LookKey, the key overlays' names are checked by):
// "gсp" with a Cyrillic с reads as gcp (attack round 13).
func lookAlike(cat *model.Catalog, ph *Phase) (model.Message, bool) {
	pk, tk := show.LookKey(ph.Provider), show.LookKey(ph.Instance)
	for j := range cat.Instances {
		c := &cat.Instances[j]
		switch {
		case c.Provider != ph.Provider && show.LookKey(c.Provider) == pk:
			return model.Msg("phase %q: provider %s reads as %s but is another name (a look-alike character?): the plan's price for it is unchecked; spell it as the catalog does", ph.Name, quoteShown(ph.Provider), quoteShown(c.Provider)), true
		case c.Provider == ph.Provider && c.Type != ph.Instance && show.LookKey(c.Type) == tk:
			return model.Msg("phase %q: %s instance %s reads as %s but is another name (a look-alike character?): the plan's price for it is unchecked; spell it as the catalog does", ph.Name, ph.Provider, quoteShown(ph.Instance), quoteShown(c.Type)), true
		}
	}
	return model.Message{}, false
}

// regionLookAlike returns the region in's prices name that region, not
// one of them, reads as once case, accents and look-alike characters are
// set aside (show.LookKey, as lookAlike reads providers and types).
func regionLookAlike(in *model.Instance, region string) (string, bool) {
	if region == "" {
		return "", false
	}
	k := show.LookKey(region)
	for _, p := range in.Prices {
		if p.Region != region && show.LookKey(p.Region) == k {
			return p.Region, true
		}
	}
	return "", false
}

// nearOffer names what a phase's provider and instance type not in cat
// may be a slip for (walk35: "lamda" got no hint): the closest providers
// when the provider is unknown, else the provider's closest instance
// types, each as "provider type" (model.Closest: at most three, none
// further than a typo).
func nearOffer(cat *model.Catalog, ph *Phase) []string {
	var providers, types []string
	known := false
	for i := range cat.Instances {
		in := &cat.Instances[i]
		if in.Provider == ph.Provider {
			known = true
			types = append(types, in.Type)
		} else if !slices.Contains(providers, in.Provider) {
			providers = append(providers, in.Provider)
		}
	}
	var out []string
	if known {
		for _, t := range model.Closest(ph.Instance, types, 3) {
			out = append(out, fmt.Sprintf("%s %s", ph.Provider, t))
		}
		return out
	}
	for _, p := range model.Closest(ph.Provider, providers, 3) {
		if slices.ContainsFunc(cat.Instances, func(in model.Instance) bool { return in.Provider == p && in.Type == ph.Instance }) {
			p = fmt.Sprintf("%s %s", p, ph.Instance) // the whole offer, when the type is the provider's
		}
		out = append(out, p)
	}
	return out
}

// PriceNote says, for a file written for the phase's offer at the
// catalog's usdPerHour (the whole deployment, instances as the phase
// rents them, as of asOf), that the plan prices it at its own
// usd_per_hour, when the two sit further apart than Check allows
// (planPriceTolerance); zero when they agree or the phase gives no price.
// export --phase puts it beside the header's catalog price (walk37: the
// file said $21.96/h of a phase the plan prices at $30/h, unsaid).
func (ph *Phase) PriceNote(usdPerHour float64, asOf string) model.Message {
	if ph.USDPerHour <= 0 || usdPerHour <= 0 || math.Abs(ph.USDPerHour-usdPerHour) <= planPriceTolerance*usdPerHour {
		return model.Message{}
	}
	return model.Msg("phase %q: the plan prices this offer at $%.4g/h (its usd_per_hour); the $%.2f/h in the header is the catalog's (as of %s)", ph.Name, ph.USDPerHour, usdPerHour, asOf)
}

// noRegionListed is how many other regions noRegion names before "and N
// more": a type priced in forty regions needs a hint, not a list.
const noRegionListed = 4

// noRegion is Check's note for a phase that names an offer but no region:
// the region to add, the cheapest the catalog prices the offer in for the
// phase's pricing mode, and a few others it is priced in.
func noRegion(cat *model.Catalog, in *model.Instance, ph *Phase) model.Message {
	pricing := cmp.Or(ph.Pricing, model.OnDemand)
	type priced struct {
		region string
		usd    float64
	}
	var rs []priced
	for j := range in.Prices {
		if unit, ok := cat.Price(in, &in.Prices[j], pricing, nil); ok {
			rs = append(rs, priced{in.Prices[j].Region, unit})
		}
	}
	slices.SortStableFunc(rs, func(a, b priced) int { return cmp.Or(cmp.Compare(a.usd, b.usd), cmp.Compare(a.region, b.region)) })
	switch len(rs) {
	case 0:
		return model.Msg("phase %q names no region, and the catalog has no %s price for %s %s in any: the plan's price for it is unchecked", ph.Name, model.Msg(string(pricing)), ph.Provider, ph.Instance)
	case 1:
		return model.Msg("phase %q names no region: the plan's price for it is unchecked; add region = %q, the one region the catalog prices %s %s in", ph.Name, rs[0].region, ph.Provider, ph.Instance)
	}
	var others []string
	for _, r := range rs[1:min(len(rs), 1+noRegionListed)] {
		others = append(others, r.region)
	}
	if more := len(rs) - 1 - len(others); more > 0 {
		return model.Msg("phase %q names no region: the plan's price for it is unchecked; add region = %q (the cheapest the catalog prices %s %s in; also priced in %s and %d more)", ph.Name, rs[0].region, ph.Provider, ph.Instance, strings.Join(others, ", "), more)
	}
	return model.Msg("phase %q names no region: the plan's price for it is unchecked; add region = %q (the cheapest the catalog prices %s %s in; also priced in %s)", ph.Name, rs[0].region, ph.Provider, ph.Instance, strings.Join(others, ", "))
}
