package market

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// EmptyHints are the lines that say why q lists nothing when one of its
// GPU filters can never match c, whatever the rest of q (a new user's
// walk: `offers H100:9` and `offers MI300X:8 --nvlink` printed "0
// offers" and nothing more):
//
//   - a GPU spec with a count no instance type of those GPUs has: the
//     counts the catalog has for them;
//   - --nvlink or --interconnect nvlink/nvswitch on AMD GPUs only, which
//     join their GPUs with Infinity Fabric (xGMI), never NVLink;
//   - a pricing mode the asked providers (every provider when q names
//     none) have no price in, such as capacity-block, which no provider
//     of the embedded catalog lists: the providers that have one, if any
//     (a new user's walk: `offers --pricing capacity-block` printed "0
//     offers" and nothing more).
//
// Call it when the listing is empty; nil when no filter is the cause.
func EmptyHints(c *model.Catalog, q *Query) []model.Message {
	var out []model.Message
	if h, ok := pricingHint(c, q); ok {
		out = append(out, h)
	}
	for i := range q.GPUs {
		s := &q.GPUs[i]
		counts := map[int]bool{}
		amd, nvidia := false, false
		for j := range c.Instances {
			in := &c.Instances[j]
			g, err := c.GPU(in.GPU)
			if err != nil || !(len(s.Keys) == 0 || slices.Contains(s.Keys, g.Key)) || !(s.Vendor == "" || g.Vendor == s.Vendor) || !s.VRAMGiB.Contains(g.MemoryGiB) {
				continue
			}
			counts[in.GPUCount] = true
			amd, nvidia = amd || g.Vendor == "amd", nvidia || g.Vendor != "amd"
		}
		name, count, _ := strings.Cut(s.Text, ":")
		if len(counts) == 0 {
			// A GPU the catalog knows (catalog gpus) that no provider
			// rents: an empty table said nothing (a walk: offers mi325x).
			if len(s.Keys) > 0 && s.Vendor == "" && s.VRAMGiB == (Bounds{}) {
				out = append(out, model.Msg("no provider in the catalog rents %s (gpuplan catalog gpus lists the GPU; no instance type has it)", name))
			}
			continue
		}
		have := make([]int, 0, len(counts))
		fits := false
		for n := range counts {
			have = append(have, n)
			fits = fits || s.Count.Contains(float64(n))
		}
		slices.Sort(have)
		if !fits {
			words := make([]string, len(have))
			for k, n := range have {
				words[k] = strconv.Itoa(n)
			}
			out = append(out, model.Msg("no %s instance type has %s GPUs; the catalog's have %s", name, count, strings.Join(words, ", ")))
		}
		if amd && !nvidia && (q.Interconnect == LinkNVLink || q.Interconnect == LinkNVSwitch) {
			out = append(out, model.Msg("%s joins its GPUs with AMD's Infinity Fabric (xGMI), never NVLink: --interconnect infinity-fabric (or fast) keeps those hosts", name))
		}
	}
	return out
}

// pricingHint says, when no offered instance type of q's providers has a
// price in q's pricing mode in any region, which providers have one; ok
// is false when some of them do. Currencies count whatever their rate: a
// price in yuan is a price in the mode, only its conversion is missing.
func pricingHint(c *model.Catalog, q *Query) (model.Message, bool) {
	p := q.Pricing
	if p == "" {
		p = model.OnDemand
	}
	var have []string
	for i := range c.Instances {
		in := &c.Instances[i]
		if !in.Offered() && !q.Retired || slices.Contains(have, in.Provider) {
			continue
		}
		rates := map[string]float64{in.PriceCurrency(): 1}
		for j := range in.Prices {
			if _, ok := c.ListPrice(in, &in.Prices[j], p, rates); ok {
				if len(q.Providers) == 0 || slices.Contains(q.Providers, in.Provider) {
					return model.Message{}, false
				}
				have = append(have, in.Provider)
				break
			}
		}
	}
	if len(have) == 0 {
		return model.Msg("the catalog has no %s prices from any provider", p), true
	}
	slices.Sort(have)
	return model.Msg("no %s prices in the catalog for %s; providers with them: %s", p, strings.Join(q.Providers, ","), strings.Join(have, ", ")), true
}
