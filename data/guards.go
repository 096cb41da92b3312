package data

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// Guard is one suspicious price or shape found by Guards.
type Guard struct {
	Provider, Type, Region string
	Rule                   string // "spot-above-on-demand", "below-median", "form-factor", "unknown-region"
	Msg                    string
}

func (g Guard) String() string {
	if g.Region != "" {
		return fmt.Sprintf("%s/%s %s: %s", g.Provider, g.Type, g.Region, g.Msg)
	}
	return fmt.Sprintf("%s/%s: %s", g.Provider, g.Type, g.Msg)
}

// medianFraction is the share of its family's median per-GPU on-demand
// price below which a row is flagged: GCP's flex-start discount of up to
// 53% (catalog audit #1) lands below it, regional list price spreads
// (< 40% in every cloud of the snapshot) do not.
const medianFraction = 0.6

// Guards checks instances against the rules of catalog audit §6 and
// returns what looks wrong, in input order:
//   - spot-above-on-demand: an on-demand price below the same region's
//     spot price is not on-demand (no cloud sells on-demand below spot);
//   - below-median: an on-demand price below medianFraction × the median
//     of the same type's on-demand prices over its regions, when it has
//     at least three (the DWS pattern; sizes of one family differ in
//     price per GPU, so the type is the family here);
//   - form-factor: a type named PCIe on an SXM/NVLink GPU entry or named
//     SXM on a PCIe card (catalog audit #5);
//   - unknown-region: a region the provider has nowhere in known (a typo
//     or a region the type is not offered in); skipped when known is nil.
//
// Duplicated types and regions and GPU memory given per instance are
// load errors already (decode, merge, rawGPU.validate), so each instance
// of insts is its own family and is checked on its own.
func Guards(c *model.Catalog, insts []model.Instance, known map[string]map[string]bool) []Guard {
	var out []Guard
	var perGPU []float64 // reused: one instance's on-demand prices per GPU
	for i := range insts {
		out, perGPU = guard(out, perGPU, c, &insts[i], known)
	}
	return out
}

// guard appends in's findings to out; perGPU is scratch space, returned
// for reuse.
func guard(out []Guard, perGPU []float64, c *model.Catalog, in *model.Instance, known map[string]map[string]bool) ([]Guard, []float64) {
	if g, err := c.GPU(in.GPU); err == nil {
		name := strings.ToLower(in.Type)
		switch {
		case strings.Contains(name, "pci") && g.Interconnect != "" && g.Interconnect != "pcie":
			out = append(out, Guard{in.Provider, in.Type, "", "form-factor", fmt.Sprintf("named PCIe but its GPU %s is an %s module", g.Key, g.Interconnect)})
		case strings.Contains(name, "sxm") && g.Interconnect == "pcie":
			out = append(out, Guard{in.Provider, in.Type, "", "form-factor", fmt.Sprintf("named SXM but its GPU %s is a PCIe card", g.Key)})
		}
	}
	perGPU = perGPU[:0]
	for _, p := range in.Prices {
		if p.OnDemandUSD > 0 && in.GPUCount > 0 {
			perGPU = append(perGPU, p.OnDemandUSD/float64(in.GPUCount))
		}
	}
	m := 0.0
	if len(perGPU) >= 3 {
		m = median(perGPU)
	}
	for _, p := range in.Prices {
		switch {
		case p.OnDemandUSD > 0 && p.SpotUSD > p.OnDemandUSD*spotTolerance:
			out = append(out, Guard{in.Provider, in.Type, p.Region, "spot-above-on-demand", fmt.Sprintf("on-demand %g is below spot %g: not an on-demand price", p.OnDemandUSD, p.SpotUSD)})
		case p.OnDemandUSD > 0 && m > 0 && p.OnDemandUSD/float64(in.GPUCount) < medianFraction*m:
			out = append(out, Guard{in.Provider, in.Type, p.Region, "below-median", fmt.Sprintf("on-demand %g per GPU is below %.0f%% of the type's median over regions %g (a flex-start or promotional price?)", p.OnDemandUSD/float64(in.GPUCount), medianFraction*100, m)})
		}
		if regions, ok := known[in.Provider]; ok && !regions[p.Region] {
			out = append(out, Guard{in.Provider, in.Type, p.Region, "unknown-region", "region not offered by " + in.Provider + " in the catalog (typo?)"})
		}
	}
	return out, perGPU
}

// KnownRegions returns the regions each provider of c has prices in.
func KnownRegions(c *model.Catalog) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, in := range c.Instances {
		if out[in.Provider] == nil {
			out[in.Provider] = map[string]bool{}
		}
		for _, p := range in.Prices {
			out[in.Provider][p.Region] = true
		}
	}
	return out
}

// overlayGuards returns the guard findings for the instances overlays
// changed, as warnings for LoadWith.
func overlayGuards(base, merged *model.Catalog, files []catalogFile) []string {
	// merge lays out the embedded instances first, in base's order, then
	// the ones overlays add: an instance changed if it is past base's or
	// an overlay names its type. Only base's few hundred types are keyed.
	type key struct{ provider, typ string }
	nb := len(base.Instances)
	baseAt := make(map[key]int, nb)
	for i := range base.Instances {
		baseAt[key{base.Instances[i].Provider, base.Instances[i].Type}] = i
	}
	touched := make([]bool, nb)
	for _, f := range files {
		for _, in := range f.instances {
			if i, ok := baseAt[key{in.Provider, in.Type}]; ok {
				touched[i] = true
			}
		}
		for i := range f.full {
			if j, ok := baseAt[key{f.full[i].Provider, f.full[i].Type}]; ok {
				touched[j] = true
			}
		}
	}
	known := KnownRegions(base)
	var gs []Guard
	var buf []float64
	for i := range merged.Instances {
		if i >= nb || touched[i] {
			gs, buf = guard(gs, buf, merged, &merged.Instances[i], known)
		}
	}
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.String()
	}
	sort.Strings(out)
	return out
}
