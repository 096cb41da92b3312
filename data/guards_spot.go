package data

import (
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// SpotMarkets returns the providers c lists a spot price for. A provider
// not in it (Lambda, Vast and the other GPU clouds without a spot
// market in the embedded catalog) gets no spot price from a fetched
// source nor from an overlay: one rule at both doors (ClearInventedSpot),
// since a spot market made up at a third of on-demand would rank first
// under --pricing spot with nothing to compare it with (attack test 4,
// N2; attack 7, L3: an overlay could do what catalog update refused).
func SpotMarkets(c *model.Catalog) map[string]bool {
	out := map[string]bool{}
	for i := range c.Instances {
		in := &c.Instances[i]
		if out[in.Provider] {
			continue
		}
		for _, p := range in.Prices {
			if p.SpotUSD > 0 {
				out[in.Provider] = true
				break
			}
		}
	}
	return out
}

// ClearInventedSpot clears the spot price of each instance of insts whose
// provider is not in markets (SpotMarkets of the embedded catalog); a
// region left with no price, and an instance left with no region, are
// dropped. It returns insts so cleared, in place, and how many spot
// prices it cleared; per instance it costs one map look-up when there is
// nothing to clear.
func ClearInventedSpot(markets map[string]bool, insts []model.Instance) ([]model.Instance, int) {
	n := 0
	out := insts[:0]
	// The provider's market is looked up when it changes (a file's
	// instances share one), and an instance moves only once one before it
	// was dropped: a 288-byte Instance copied out and back 100,000 times
	// was most of this pass over an overlay.
	provider, market := "", false
	for i := range insts {
		if i == 0 || insts[i].Provider != provider {
			provider, market = insts[i].Provider, markets[insts[i].Provider]
		}
		if !market && slices.ContainsFunc(insts[i].Prices, func(p model.RegionPrice) bool { return p.SpotUSD > 0 }) {
			in := insts[i] // cleared in a copy: insts[i] itself is only ever overwritten by a later instance moving down
			prices := make([]model.RegionPrice, 0, len(in.Prices))
			for _, p := range in.Prices {
				if p.SpotUSD > 0 {
					n++
					p.SpotUSD = 0
				}
				if p.OnDemandUSD > 0 || p.FlexStartUSD > 0 || p.CapacityBlockUSD > 0 || p.Reservation {
					prices = append(prices, p)
				}
			}
			if in.Prices = prices; len(prices) == 0 {
				continue
			}
			out = append(out, in)
			continue
		}
		if out = out[:len(out)+1]; len(out)-1 != i {
			out[len(out)-1] = insts[i]
		}
	}
	return out, n
}

// clearInventedSpot is ClearInventedSpot on an overlay file's instances
// at load, with the line saying what it cleared.
func clearInventedSpot(f *catalogFile, markets map[string]bool) []model.Message {
	var providers []string
	// The market of the last provider seen: a file's instances share one.
	last, market, seen := "", false, false
	note := func(in *model.Instance) {
		if !seen || in.Provider != last {
			last, market, seen = in.Provider, markets[in.Provider], true
		}
		if !market && !slices.Contains(providers, in.Provider) &&
			slices.ContainsFunc(in.Prices, func(p model.RegionPrice) bool { return p.SpotUSD > 0 }) {
			providers = append(providers, in.Provider)
		}
	}
	n := 0
	// Entries one by one, so each keeps its complete flag.
	keep := f.instances[:0]
	for _, e := range f.instances {
		note(&e.Instance)
		one, k := ClearInventedSpot(markets, []model.Instance{e.Instance})
		if n += k; len(one) == 1 {
			e.Instance = one[0]
			keep = append(keep, e)
		}
	}
	f.instances = keep
	for i := range f.full {
		note(&f.full[i])
	}
	var k int
	f.full, k = ClearInventedSpot(markets, f.full)
	if f.backing != nil {
		// mergeInPlace walks backing, not full: an instance dropped last
		// stayed behind it, spot price and all, and was ranked at spot.
		f.backing = f.backing[:f.room+len(f.full)]
	}
	if n += k; n == 0 {
		return nil
	}
	slices.Sort(providers)
	return []model.Message{model.Msg("catalog %s: %d spot "+model.Plural(n, "price")+" not loaded: the embedded catalog lists no spot price for %s, and an overlay cannot add a spot market (the rule catalog update applies)",
		f.name, n, strings.Join(providers, ", "))}
}
