package data

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

func TestCutGuards(t *testing.T) {
	base := &model.Catalog{Instances: []model.Instance{
		{Provider: "p", Type: "g8", GPU: "h100-sxm", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 32, SpotUSD: 16}}},
		{Provider: "p", Type: "cpu", Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 1}}},
	}}
	tests := []struct {
		name string
		in   model.Instance
		want []string // "mode rule" of each guard, in order
	}{
		{"half exactly is kept", model.Instance{Provider: "p", Type: "g8", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 16, SpotUSD: 8}}}, nil},
		// 15.99 < 0.5 × 32
		{"just under half", model.Instance{Provider: "p", Type: "g8", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 15.99}}}, []string{"r1"}},
		// spot 7 < 0.5 × 16, on demand 30 is not
		{"spot cut", model.Instance{Provider: "p", Type: "g8", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 30, SpotUSD: 7}}}, []string{"r1"}},
		// same price, twice the GPUs: $2 per GPU-hour against $4
		{"GPU count doubled at the same price", model.Instance{Provider: "p", Type: "g8", GPUCount: 16, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 31}}}, []string{"r1"}},
		{"region the catalog does not price", model.Instance{Provider: "p", Type: "g8", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r2", OnDemandUSD: 1}}}, nil},
		{"another provider's type", model.Instance{Provider: "q", Type: "g8", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 1}}}, nil},
		{"CPU type per instance-hour", model.Instance{Provider: "p", Type: "cpu", Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 0.4}}}, []string{"r1"}},
		{"rise", model.Instance{Provider: "p", Type: "g8", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 64}}}, nil},
	}
	for _, tt := range tests {
		got := CutGuards(base, []model.Instance{tt.in})
		if len(got) != len(tt.want) {
			t.Errorf("%s: %v, want %d guards", tt.name, got, len(tt.want))
			continue
		}
		for i, g := range got {
			if g.Region != tt.want[i] || g.Rule != "price-cut" || !PriceRule(g.Rule) {
				t.Errorf("%s: guard %v, want price-cut in %s", tt.name, g, tt.want[i])
			}
		}
	}
}

func TestRiseGuards(t *testing.T) {
	base := &model.Catalog{Instances: []model.Instance{
		{Provider: "p", Type: "g8", GPU: "h100-sxm", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 32, SpotUSD: 8}}},
		{Provider: "p", Type: "cpu", Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 1}}},
	}}
	tests := []struct {
		name string
		in   model.Instance
		want []string // the region of each guard, in order
	}{
		{"twice exactly is kept", model.Instance{Provider: "p", Type: "g8", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 64, SpotUSD: 16}}}, nil},
		// 64.01 > 2 × 32
		{"just over twice", model.Instance{Provider: "p", Type: "g8", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 64.01}}}, []string{"r1"}},
		{"×50", model.Instance{Provider: "p", Type: "g8", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 1600}}}, []string{"r1"}},
		// spot 30 is 3.75 × 8 but under the on-demand 32: a spot market rising, kept
		{"spot up to on demand", model.Instance{Provider: "p", Type: "g8", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 32, SpotUSD: 30}}}, nil},
		// spot 33 > 2 × 8 and > the catalog's on-demand 32
		{"spot past the catalog's on demand", model.Instance{Provider: "p", Type: "g8", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 32, SpotUSD: 33}}}, []string{"r1"}},
		// same price, a quarter of the GPUs: $16 per GPU-hour against $4
		{"GPU count quartered at the same price", model.Instance{Provider: "p", Type: "g8", GPUCount: 2, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 32}}}, []string{"r1"}},
		{"region the catalog does not price", model.Instance{Provider: "p", Type: "g8", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r2", OnDemandUSD: 1000}}}, nil},
		{"another provider's type", model.Instance{Provider: "q", Type: "g8", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 1000}}}, nil},
		{"CPU type per instance-hour", model.Instance{Provider: "p", Type: "cpu", Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 2.5}}}, []string{"r1"}},
		{"cut", model.Instance{Provider: "p", Type: "g8", GPUCount: 8, Prices: []model.RegionPrice{{Region: "r1", OnDemandUSD: 1}}}, nil},
	}
	for _, tt := range tests {
		got := RiseGuards(base, []model.Instance{tt.in})
		if len(got) != len(tt.want) {
			t.Errorf("%s: %v, want %d guards", tt.name, got, len(tt.want))
			continue
		}
		for i, g := range got {
			if g.Region != tt.want[i] || g.Rule != "price-rise" || !PriceRule(g.Rule) {
				t.Errorf("%s: guard %v, want price-rise in %s", tt.name, g, tt.want[i])
			}
		}
	}
	// 1600 / 8 = $200 per GPU-hour against $4: 4900% more.
	g := RiseGuards(base, []model.Instance{tests[2].in})
	want := "p/g8 r1: on-demand $200.00 per GPU-hour is over twice the catalog's $4.00 per GPU-hour for this type and region (4900% more): a fake or mistyped price? If the provider did raise it, write the price in an overlay by hand and pass --trust-overlay"
	if len(g) != 1 || g[0].String() != want {
		t.Errorf("×50: %v\nwant %s", g, want)
	}
}
