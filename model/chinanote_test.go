package model

import "testing"

// TestChinaNote: --country CN (or --regions cn) over a catalog whose only
// Chinese host is a marketplace one says where China's clouds are; a
// catalog with a cloud region there, or a query not about China, says
// nothing.
func TestChinaNote(t *testing.T) {
	cloud := Instance{Provider: "aws", Type: "g5.xlarge", GPU: "a10g", GPUCount: 1, Prices: []RegionPrice{{Region: "us-east-1", OnDemandUSD: 1}}}
	host := Instance{Provider: "vast", Type: "1x-RTX_4090", GPU: "rtx-4090", GPUCount: 1, Prices: []RegionPrice{{Region: "CN", OnDemandUSD: 0.3}}}
	ali := Instance{Provider: "alibaba", Type: "ecs.gn7i-c8g1.2xlarge", GPU: "a10", GPUCount: 1, Prices: []RegionPrice{{Region: "cn-hangzhou", OnDemandUSD: 1.2}}}
	vast := ProviderRegions{Provider: "vast", Rule: GeoISOCountry} // its "CN" is in China
	without := &Catalog{Instances: []Instance{cloud, host}, Regions: []ProviderRegions{vast}}
	if g, _ := without.Geo("vast", "CN"); g.Country != "CN" {
		t.Fatalf("the marketplace host's region is not in China: %+v", g)
	}
	with := &Catalog{Instances: []Instance{cloud, host, ali}, Regions: []ProviderRegions{vast, {Provider: "alibaba", Regions: []RegionGeo{{Region: "cn-hangzhou", Country: "CN", Continent: "asia"}}}}}
	for _, tt := range []struct {
		name               string
		cat                *Catalog
		countries, regions []string
		want               bool
	}{
		{"--country CN", without, []string{"CN"}, nil, true},
		{"--country china", without, []string{"china"}, nil, true},
		{"--regions cn", without, nil, []string{"cn"}, true},
		{"--country DE", without, []string{"DE"}, nil, false},
		{"a cloud region in China", with, []string{"CN"}, nil, false},
	} {
		if _, got := tt.cat.ChinaNote(tt.countries, tt.regions); got != tt.want {
			t.Errorf("%s: ChinaNote ok = %v, want %v", tt.name, got, tt.want)
		}
	}
}
