package model

import (
	"slices"
	"strings"
)

// marketValueFlags and marketBoolFlags are the filters ParseMarketArgs takes, spelled as the
// flags of gpuplan offers (ui/cli/offers.go); the booleans take no value.
var (
	marketValueFlags = []string{"vram", "regions", "country", "providers", "pricing", "max-price", "arch", "interconnect", "sort", "group-by"}
	marketBoolFlags  = []string{"nvlink", "infiniband", "efa", "all-regions", "all"}
)

// marketPricings are the modes the market is browsed by: recommend's
// pricing modes plus the availability modes with a public price.
var marketPricings = []Pricing{OnDemand, Spot, Reserved1y, Reserved3y, FlexStart, CapacityBlock}

// ParseMarketPricing parses the pricing mode of the market: on-demand,
// spot, reserved-1y, reserved-3y (with ParsePricing's aliases),
// flex-start (or dws) and capacity-block. Errors match ErrBadFilter.
func ParseMarketPricing(s string) (Pricing, error) {
	switch t := Pricing(strings.ToLower(strings.TrimSpace(s))); t {
	case FlexStart, CapacityBlock:
		return t, nil
	case "dws":
		return FlexStart, nil
	}
	p, err := ParsePricing(s)
	if err != nil {
		names := make([]string, len(marketPricings))
		for i, m := range marketPricings {
			names[i] = string(m)
		}
		return "", badFilter("pricing %q: want %s", s, orMsg(names))
	}
	return p, nil
}

// ParseMarketArgs parses what follows `gpuplan offers` on a command line,
// already split into words: GPU specs (ParseGPUSpec; several, or
// comma-separated, match any) and the command's filters as --name value,
// --name=value or name=value (vram, regions, providers, pricing,
// max-price, arch, interconnect, sort, group-by; and the switches nvlink,
// infiniband, efa, all-regions, all). The configurator's browse screen
// reads its filter line with it, so that one grammar serves both.
//
// Errors are one line, match ErrBadFilter, and suggest the nearest
// filter name for an unknown one.
func ParseMarketArgs(args []string, c *Catalog) (MarketQuery, error) {
	var q MarketQuery
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := "", "", false
		switch {
		case strings.HasPrefix(a, "-"):
			name, val, hasVal = strings.Cut(strings.TrimLeft(a, "-"), "=")
		case strings.Contains(a, "="):
			name, val, hasVal = strings.Cut(a, "=")
			if slices.Contains(marketBoolFlags, strings.ToLower(name)) {
				return q, badFilter("%s takes no value: write --%s", a, strings.ToLower(name))
			}
		default:
			for _, s := range strings.Split(a, ",") {
				if s == "" {
					continue
				}
				spec, err := ParseGPUSpec(s, c)
				if err != nil {
					return q, err
				}
				q.GPUs = append(q.GPUs, spec)
			}
			continue
		}
		name = strings.ToLower(name)
		if slices.Contains(marketBoolFlags, name) {
			if hasVal {
				return q, badFilter("--%s takes no value", name)
			}
			switch name {
			case "nvlink":
				if q.Interconnect != "" && q.Interconnect != LinkNVLink {
					return q, badFilter("--nvlink and --interconnect %s: give one", q.Interconnect)
				}
				q.Interconnect = LinkNVLink
			case "infiniband", "efa":
				q.InfiniBand = true
			case "all-regions":
				q.AllRegions = true
			case "all":
				q.Retired = true
			}
			continue
		}
		if !slices.Contains(marketValueFlags, name) {
			all := append(slices.Clone(marketValueFlags), marketBoolFlags...)
			if s := Closest(name, all, 1); len(s) > 0 {
				return q, badFilter("unknown filter %q; did you mean --%s?", a, s[0])
			}
			return q, badFilter("unknown filter %q; filters are --%s", a, strings.Join(all, ", --"))
		}
		if !hasVal {
			if i+1 >= len(args) {
				return q, badFilter("--%s needs a value", name)
			}
			i++
			val = args[i]
		}
		if err := q.set(name, val); err != nil {
			return q, err
		}
	}
	return q, nil
}

// set applies one valued filter of ParseMarketArgs.
func (q *MarketQuery) set(name, val string) error {
	var err error
	list := func() []string {
		var out []string
		for _, s := range strings.Split(val, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	switch name {
	case "vram":
		q.VRAMGiB, err = ParseVRAMRange(val)
	case "regions":
		q.Regions = append(q.Regions, list()...)
	case "country", "countries":
		q.Countries = append(q.Countries, list()...)
	case "providers":
		for _, p := range list() {
			q.Providers = append(q.Providers, strings.ToLower(p))
		}
	case "pricing":
		q.Pricing, err = ParseMarketPricing(val)
	case "max-price":
		q.MaxUSDPerHour, err = ParseMaxPrice(val)
	case "arch":
		q.Arch, err = ParseArch(val)
	case "interconnect":
		if q.Interconnect == LinkNVLink {
			return badFilter("--nvlink and --interconnect %s: give one", val)
		}
		q.Interconnect, err = ParseInterconnect(val)
	case "sort":
		q.Sort, err = ParseMarketSort(val)
	case "group-by":
		q.GroupBy, err = ParseMarketGroupBy(val)
	}
	return err
}

// MarketFlagTakesValue reports whether the ParseMarketArgs filter name
// (without dashes) takes a value, so that "--regions us-" is read as one
// filter by whoever rewrites a line of them.
func MarketFlagTakesValue(name string) bool {
	return slices.Contains(marketValueFlags, strings.ToLower(name))
}
