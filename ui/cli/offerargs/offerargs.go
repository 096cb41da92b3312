// Package offerargs reads the filters of gpuplan offers from words (--name
// value, --name=value, name=value and GPU specs), the grammar the
// configurator's browse screen takes on its filter line too. It sits
// under ui/cli because it is the command line's grammar, and apart from
// it so that ui/tui can read the same grammar without importing the
// commands.
package offerargs

import (
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
)

// marketValueFlags and marketBoolFlags are the filters Parse takes, spelled
// as the flags of gpuplan offers (ui/cli/offers.go); the booleans take no
// value.
var (
	marketValueFlags = []string{"vram", "regions", "country", "providers", "pricing", "max-price", "arch", "interconnect", "sort", "group-by"}
	marketBoolFlags  = []string{"nvlink", "infiniband", "efa", "all-regions", "all"}
)

// Parse parses what follows `gpuplan offers` on a command line, already
// split into words: GPU specs (market.ParseGPUSpec; several, or
// comma-separated, match any) and the command's filters as --name value,
// --name=value or name=value (vram, regions, country, providers, pricing,
// max-price, arch, interconnect, sort, group-by; and the switches nvlink,
// infiniband, efa, all-regions, all). The configurator's browse screen
// reads its filter line with it, so that one grammar serves both.
//
// Errors are one line, match market.ErrBadFilter, and suggest the nearest
// filter name for an unknown one.
func Parse(args []string, c *model.Catalog) (market.Query, error) {
	var q market.Query
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := "", "", false
		switch {
		case strings.HasPrefix(a, "-"):
			name, val, hasVal = strings.Cut(strings.TrimLeft(a, "-"), "=")
		case strings.Contains(a, "="):
			name, val, hasVal = strings.Cut(a, "=")
			if slices.Contains(marketBoolFlags, strings.ToLower(name)) {
				return q, market.BadFilter("%s takes no value: write --%s", a, strings.ToLower(name))
			}
		default:
			for _, s := range strings.Split(a, ",") {
				if s == "" {
					continue
				}
				spec, err := market.ParseGPUSpec(s, c)
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
				return q, market.BadFilter("--%s takes no value", name)
			}
			switch name {
			case "nvlink":
				if q.Interconnect != "" && q.Interconnect != market.LinkNVLink {
					return q, market.BadFilter("--nvlink and --interconnect %s: give one", q.Interconnect)
				}
				q.Interconnect = market.LinkNVLink
			case "infiniband", "efa":
				q.InfiniBand = true
			case "all-regions":
				q.AllRegions = true
			case "all":
				q.Retired, q.Held = true, true
			}
			continue
		}
		if !slices.Contains(marketValueFlags, name) {
			all := append(slices.Clone(marketValueFlags), marketBoolFlags...)
			if s := model.Closest(name, all, 1); len(s) > 0 {
				return q, market.BadFilter("unknown filter %q; did you mean --%s?", a, s[0])
			}
			return q, market.BadFilter("unknown filter %q; filters are --%s", a, strings.Join(all, ", --"))
		}
		if !hasVal {
			if i+1 >= len(args) {
				return q, market.BadFilter("--%s needs a value", name)
			}
			i++
			val = args[i]
		}
		if err := set(&q, name, val); err != nil {
			return q, err
		}
	}
	return q, nil
}

// set applies one valued filter of Parse to q.
func set(q *market.Query, name, val string) error {
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
	case "regions", "country", "providers":
		// regions= or country=,, names nothing: refused as the flags of
		// offers and recommend refuse it, not read as no filter.
		if m := model.CheckListNamesSome("--"+name, strings.Split(val, ",")); !m.IsZero() {
			return market.FilterMessage(m)
		}
	}
	switch name {
	case "vram":
		q.VRAMGiB, err = market.ParseVRAMRange(val)
	case "regions":
		q.Regions = append(q.Regions, list()...)
	case "country", "countries":
		q.Countries = append(q.Countries, list()...)
	case "providers":
		for _, p := range list() {
			q.Providers = append(q.Providers, strings.ToLower(p))
		}
	case "pricing":
		q.Pricing, err = market.ParsePricing(val)
	case "max-price":
		q.MaxUSDPerHour, err = market.ParseMaxPrice(val)
	case "arch":
		q.Arch, err = market.ParseArch(val)
	case "interconnect":
		if q.Interconnect == market.LinkNVLink {
			return market.BadFilter("--nvlink and --interconnect %s: give one", val)
		}
		q.Interconnect, err = market.ParseInterconnect(val)
	case "sort":
		q.Sort, err = market.ParseSort(val)
	case "group-by":
		q.GroupBy, err = market.ParseGroupBy(val)
	}
	return err
}

// TakesValue reports whether the Parse filter name
// (without dashes) takes a value, so that "--regions us-" is read as one
// filter by whoever rewrites a line of them.
func TakesValue(name string) bool {
	return slices.Contains(marketValueFlags, strings.ToLower(name))
}
