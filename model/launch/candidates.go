package launch

import (
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch/cloud"
	"github.com/gpuplan/gpuplan/model/launch/stack"
	"github.com/gpuplan/gpuplan/model/show"
)

// Candidate is one more place SkyPilot may launch the same job: an
// instance type in a region, with its accelerators.
type Candidate struct {
	Provider string
	// Region is "" for a provider whose catalog regions say where a price
	// applies, not where the type is offered (anyOfRegions): the entry
	// then stands for every region SkyPilot's catalog lists the type in.
	Region          string
	InstanceType    string // as the provider spells it
	Accelerator     string // SkyPilot's name
	GPUsPerInstance int
	// SkyPilotGPUs is the GPUs per node SkyPilot's catalog gives the
	// type (SkyPilotGPUCount); the file writes no accelerators when it
	// differs from GPUsPerInstance.
	SkyPilotGPUs int
	NetworkTier  string // "best" or ""
	USDPerHour   float64
}

// maxCandidates bounds the failover list: enough to ride out a capacity
// shortage, short enough to read.
const maxCandidates = 5

// candidatesFrom keeps the alternatives SkyPilot can run the plan's job on
// unchanged: the same number of nodes, GPUs per node and GPUs used (so the
// batch, the DeepSpeed config and torchrun's process count hold), the same
// pricing, the same PyTorch wheel (the setup installs one), a cloud and
// instance type SkyPilot accepts, and not the plan's own offer. Order is
// kept (the ranking's, cheapest first); duplicates are dropped. An offer
// in a price region (Lambda's, OCI's "any of N regions") is one entry in
// no region when the search allows every region of its price, else one
// entry in its own region: the alternatives, ranked under the search, are
// then one per region it allows (Alternatives), so SkyPilot never tries
// a region the search left out.
func (p *Plan) candidatesFrom(alts []*model.Offer) []Candidate {
	if len(alts) == 0 {
		return nil
	}
	type key struct{ provider, region, typ string }
	seen := map[key]bool{}
	for _, c := range p.ownCandidates() {
		seen[key{c.Provider, c.Region, c.InstanceType}] = true
	}
	var out []Candidate
	for _, o := range alts {
		if len(out) == maxCandidates {
			break
		}
		if o == nil || o.Instance == nil || o.GPU == nil || max(o.Instances, 1) != p.Nodes ||
			o.Instance.GPUCount != p.GPUsPerInstance || o.GPUs != p.GPUs() || o.Pricing != p.Pricing ||
			stack.Advise(o.GPU).Wheel != p.Wheel || !skyPilotCloud(o.Instance.Provider) {
			continue
		}
		typ := ProviderInstanceType(o.Instance.Provider, o.Instance.Type)
		accel, _ := cloud.InstanceAccelerator(o.Instance, o.GPU)
		region := o.Region
		if anyOf, kept := priceRegionsIn(o.Instance, o.Region, o.Pricing, &p.where); anyOf > 0 && kept == nil {
			region = "" // one entry for the type, in no region
		}
		k := key{o.Instance.Provider, region, typ}
		if seen[k] || cloud.SkyPilotRefuses(o.Instance.Provider, typ, accel, o.Instance.GPUCount) != "" {
			continue
		}
		seen[k] = true
		out = append(out, Candidate{
			Provider: o.Instance.Provider, Region: region, InstanceType: typ, Accelerator: accel,
			GPUsPerInstance: o.Instance.GPUCount, SkyPilotGPUs: cloud.SkyPilotGPUCount(o.Instance.Provider, typ, o.Instance.GPUCount),
			NetworkTier: cloud.NetworkFor(o.Instance.Provider, typ, p.Nodes).Tier,
			USDPerHour:  o.USDPerHour,
		})
	}
	return out
}

// skyPilotClouds are the values resources.cloud accepts: constants.ALL_CLOUDS
// of SkyPilot's sky/skylet/constants.py as stored (through hyperbolic),
// and the clouds SkyPilot added since, each with its catalog reader
// sky/catalog/<cloud>_catalog.py in skypilot-org/skypilot (daytona, lium,
// mithril, primeintellect, seeweb, shadeform, spheron, verda, yotta, and
// cloudrift, latitude, modal, novita, ppio, quantacloud). Hyperstack,
// JarvisLabs and SimplePod have no reader there: a launch file for them
// is refused.
var skyPilotClouds = []string{"aws", "azure", "gcp", "ibm", "lambda", "scp", "oci", "kubernetes", "runpod", "vast",
	"vsphere", "cudo", "fluidstack", "paperspace", "do", "nebius", "ssh", "hyperbolic",
	"daytona", "lium", "mithril", "primeintellect", "seeweb", "shadeform", "spheron", "verda", "yotta",
	"cloudrift", "latitude", "modal", "novita", "ppio", "quantacloud"}

// notSkyPilotCloud is the error for a provider SkyPilot has no cloud for
// (an overlay's own), nil for one it has.
func notSkyPilotCloud(provider string) error {
	if skyPilotCloud(provider) {
		return nil
	}
	return model.Errorf(ErrPlan, "SkyPilot has no cloud named %q (resources.cloud takes %s: sky/skylet/constants.py ALL_CLOUDS); pick another format",
		show.Printable(provider), strings.Join(skyPilotClouds, ", "))
}

func skyPilotCloud(provider string) bool {
	for _, c := range skyPilotClouds {
		if c == provider {
			return true
		}
	}
	return false
}

// anyOfRegions counts the regions in stands for when its provider's
// catalog regions say where a price applies, not where the type is
// offered (model.RegionsUnconfirmed): the regions priced at region's
// price for pricing, as the tables collapse them into "any of N regions"
// (ui/report CollapseRegions). It is 0 for other providers and when the
// price stands for one region only.
func anyOfRegions(in *model.Instance, region string, pricing model.Pricing) int {
	return len(priceRegions(in, region, pricing))
}

// priceRegions are the regions anyOfRegions counts, in the catalog's
// order; nil when it counts none.
func priceRegions(in *model.Instance, region string, pricing model.Pricing) []string {
	if in == nil || !model.RegionsUnconfirmed(in.Provider) {
		return nil
	}
	var at float64
	for i := range in.Prices {
		if in.Prices[i].Region == region {
			at, _ = in.Prices[i].Price(pricing)
		}
	}
	var out []string
	for i := range in.Prices {
		if usd, ok := in.Prices[i].Price(pricing); ok && usd == at {
			out = append(out, in.Prices[i].Region)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// priceRegionsIn is anyOfRegions under the user's region and country
// filter where (model.Query.RegionFilter: --regions, --country, the
// configurator's regions): anyOf is how many regions the files say the
// offer in region stands for, 0 when they name region; kept are those
// regions when where leaves some of the price's out, for the SkyPilot
// file to name each (walk54: a search of us-east-1 alone, or of the US,
// wrote a Lambda file that SkyPilot could start in any of 17 regions),
// nil when it leaves none out. One region left is named as the offer's
// own (anyOf 0). An offer outside where (a plan's phase, pinned to its
// own offer) keeps every region of its price.
func priceRegionsIn(in *model.Instance, region string, pricing model.Pricing, where *model.RegionFilter) (anyOf int, kept []string) {
	all := priceRegions(in, region, pricing)
	if len(all) == 0 || !where.Match(in.Provider, region) {
		return len(all), nil
	}
	for _, r := range all {
		if where.Match(in.Provider, r) {
			kept = append(kept, r)
		}
	}
	switch len(kept) {
	case len(all):
		return len(all), nil
	case 1:
		return 0, nil
	}
	return len(kept), kept
}
