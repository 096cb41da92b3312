package report

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestCatalogInstancesMarks: `catalog instances --all` marks a retired type
// and one the latest `catalog update` no longer lists, and leaves an
// offered one alone.
func TestCatalogInstancesMarks(t *testing.T) {
	c := &model.Catalog{Instances: []model.Instance{
		{Provider: "gcp", Type: "offered-1", GPU: "l4", GPUCount: 1, VCPUs: 4, MemoryGiB: 16, Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 1}}},
		{Provider: "gcp", Type: "gone-1", GPU: "l4", GPUCount: 1, VCPUs: 4, MemoryGiB: 16, Retired: "2026-01-01", Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 1}}},
		{Provider: "gcp", Type: "stale-1", GPU: "l4", GPUCount: 1, VCPUs: 4, MemoryGiB: 16, MissingSince: "2026-12-01", MissingSource: "test", Prices: []model.RegionPrice{{Region: "r", OnDemandUSD: 1}}},
	}}
	var b strings.Builder
	if err := WriteCatalogInstances(&b, &Renderer{Plain: true}, c, ""); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"gone-1 (retired)", "stale-1 (not in latest fetch)"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "offered-1 (") {
		t.Errorf("offered type marked:\n%s", out)
	}
}
