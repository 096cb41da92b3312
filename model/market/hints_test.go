package market

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestEmptyHints: a GPU count no instance type has names the counts
// there are; NVLink asked of AMD GPUs names Infinity Fabric; filters that
// can match say nothing.
func TestEmptyHints(t *testing.T) {
	cat := &model.Catalog{
		GPUs: []model.GPU{{Key: "h100", Name: "H100", Vendor: "nvidia", MemoryGiB: 80}, {Key: "mi300x", Name: "MI300X", Vendor: "amd", MemoryGiB: 192},
			{Key: "mi325x", Name: "MI325X", Vendor: "amd", MemoryGiB: 256}},
		Instances: []model.Instance{
			{Provider: "p", Type: "a", GPU: "h100", GPUCount: 1, Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 3}}},
			{Provider: "p", Type: "b", GPU: "h100", GPUCount: 8},
			{Provider: "p", Type: "c", GPU: "mi300x", GPUCount: 8, Interconnect: "infinity-fabric"},
		},
	}
	cat.Index()
	spec := func(text string) GPUSpec {
		s, err := ParseGPUSpec(text, cat)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		return s
	}
	for _, tt := range []struct {
		q    Query
		want string
	}{
		{Query{GPUs: []GPUSpec{spec("H100:9")}}, "no H100 instance type has 9 GPUs; the catalog's have 1, 8"},
		{Query{GPUs: []GPUSpec{spec("MI300X:8")}, Interconnect: LinkNVLink}, "MI300X joins its GPUs with AMD's Infinity Fabric (xGMI), never NVLink"},
		{Query{GPUs: []GPUSpec{spec("H100:8")}, Interconnect: LinkNVLink}, ""},
		{Query{GPUs: []GPUSpec{spec("H100:8")}}, ""},
		// A GPU no instance type has (a walk: offers mi325x said nothing).
		{Query{GPUs: []GPUSpec{spec("mi325x")}}, "no provider in the catalog rents mi325x (gpuplan catalog gpus lists the GPU; no instance type has it)"},
		{Query{GPUs: []GPUSpec{spec("MI325X:8")}}, "no provider in the catalog rents MI325X"},
	} {
		var got []string
		for _, m := range EmptyHints(cat, &tt.q) {
			got = append(got, m.String())
		}
		all := strings.Join(got, " | ")
		if tt.want == "" && all != "" || !strings.Contains(all, tt.want) {
			t.Errorf("%+v: hints %q, want %q", tt.q.GPUs[0].Text, all, tt.want)
		}
	}
}

// TestEmptyHintsPricing (a new user's walk: `offers --pricing
// capacity-block` printed "0 offers" and nothing more): a pricing mode
// the asked providers have no price in says so, and names the providers
// that have one; a mode they price says nothing.
func TestEmptyHintsPricing(t *testing.T) {
	cat := &model.Catalog{
		GPUs: []model.GPU{{Key: "h100", Name: "H100", Vendor: "nvidia", MemoryGiB: 80}},
		Instances: []model.Instance{
			{Provider: "aws", Type: "a", GPU: "h100", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 40, SpotUSD: 20}}},
			{Provider: "gcp", Type: "b", GPU: "h100", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 50, FlexStartUSD: 30}}},
			{Provider: "lambda", Type: "c", GPU: "h100", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 30}}},
			{Provider: "old", Type: "d", GPU: "h100", GPUCount: 8, Retired: "2025-01-01", Prices: []model.RegionPrice{{Region: "r", CapacityBlockUSD: 30}}},
		},
	}
	cat.Index()
	for _, tt := range []struct {
		name      string
		pricing   model.Pricing
		providers []string
		want      string
	}{
		{"capacity-block: no provider has one (a retired type's is not offered)", model.CapacityBlock, nil, "the catalog has no capacity-block prices from any provider"},
		{"capacity-block asked of aws", model.CapacityBlock, []string{"aws"}, "the catalog has no capacity-block prices from any provider"},
		{"flex-start asked of aws: gcp has it", model.FlexStart, []string{"aws"}, "no flex-start prices in the catalog for aws; providers with them: gcp"},
		{"spot asked of lambda,gcp: aws has it", model.Spot, []string{"lambda", "gcp"}, "no spot prices in the catalog for lambda,gcp; providers with them: aws"},
		{"spot of every provider: aws has it", model.Spot, nil, ""},
		{"on-demand (the default) of lambda", "", []string{"lambda"}, ""},
	} {
		q := Query{Pricing: tt.pricing, Providers: tt.providers}
		var got []string
		for _, m := range EmptyHints(cat, &q) {
			got = append(got, m.String())
		}
		if all := strings.Join(got, " | "); all != tt.want {
			t.Errorf("%s: hints %q, want %q", tt.name, all, tt.want)
		}
	}
}
