package data

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestProvidersAdded pins what the 2026-12 providers' files say and the
// corrections applied to them (data/internal/gencatalog/tables.go), each
// value read from the SkyPilot file the row's source names.
func TestProvidersAdded(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	get := func(provider, typ string) *model.Instance {
		t.Helper()
		for i := range cat.Instances {
			if in := &cat.Instances[i]; in.Provider == provider && in.Type == typ {
				return in
			}
		}
		t.Fatalf("%s %s not in the catalog", provider, typ)
		return nil
	}
	price := func(in *model.Instance, region string) model.RegionPrice {
		t.Helper()
		for _, p := range in.Prices {
			if p.Region == region {
				return p
			}
		}
		t.Fatalf("%s has no %s price", in.Type, region)
		return model.RegionPrice{}
	}
	for _, c := range []struct {
		provider, typ, gpu, region string
		count                      int
		onDemand, spot             float64
	}{
		// RunPod's GpuInfo says 'A100 PCIe'; its spot column repeats the price (0.74 and 0.74): dropped.
		{"runpod", "1x_A100-80GB_SECURE", "a100-pcie-80gb", "SE", 1, 1.39, 0},
		{"runpod", "1x_RTX4090_SECURE", "rtx-4090", "DE", 0, 0, 0}, // no DE zone in RunPod's file
		{"runpod", "4x_RTX4090_SECURE", "rtx-4090", "IS", 4, 2.96, 0},
		// Hyperstack's own names: PCIe cards, NVLink-bridged PCIe, SXM5.
		{"hyperstack", "n3-H100x1", "h100-pcie", "CANADA-1", 1, 1.9, 0},
		{"hyperstack", "n3-A100x8-NVLink", "a100-pcie-80gb", "CANADA-1", 8, 11.2, 0},
		{"hyperstack", "n3-H100x8-NVLink", "h100-pcie", "CANADA-1", 8, 15.6, 0}, // H100-80G-PCIe-NVLink: PCIe cards, bridged in pairs
		{"hyperstack", "n3-H100-SXM5x8", "h100-sxm", "CANADA-1", 8, 19.2, 0},    // its US-1 row has another shape (960 GiB): skipped
		// Prime Intellect's Hyperstack rows take Hyperstack's form factor (UpstreamCloudId n3-H100x1).
		{"primeintellect", "hyperstack__1xH100_80GB__28__180", "h100-pcie", "CA", 1, 1.9, 0},
		{"primeintellect", "datacrunch__8xH100_80GB__176__1480", "h100-sxm", "IS", 8, 15.77, 0},
		// Verda prices spot below on-demand; sizes in GpuInfo are per GPU.
		{"verda", "1B300.30V", "b300", "FIN-03", 1, 6.99, 2.447},
		{"verda", "8B200.240V", "b200", "FIN-03", 8, 0, 13.69},
		// Shadeform writes GB in SizeInMiB: 40 is the A100 40GB, 80 the 80GB.
		{"shadeform", "lambdalabs_A100-sxm4", "a100-40gb", "dulles-usa-1", 1, 1.99, 0},
		{"shadeform", "crusoe_A100-80GB", "a100-80gb", "culpeper-usa-1", 1, 2, 0},
		{"daytona", "8x-MI355X", "mi355x", "earth", 8, 64.1056, 36.88},
		{"seeweb", "ECS1GPU10", "h200", "it-fr2", 1, 2.6, 0},
		{"jarvislabs", "8x_H200_224V_2400G", "h200", "IN2", 8, 36.72, 0},
		{"yotta", "8x112v952g_NVIDIA_GeForce_RTX_5090_32G_SECURE", "rtx-5090", "us-east-2", 8, 5.2, 0},
		{"lium", "RTX4090_1x", "rtx-4090", "RO", 1, 0.35, 0},
		{"simplepod", "gpu_8x_rtx4090_256", "rtx-4090", "Europe-PL", 8, 2.56, 0}, // the cheaper of its two offers
		{"do", "gpu-mi300x8-1536gb", "mi300x", "atl1", 8, 15.92, 0},
	} {
		in := get(c.provider, c.typ)
		if in.GPU != c.gpu || c.count > 0 && in.GPUCount != c.count {
			t.Errorf("%s %s: %d× %s, want %d× %s", c.provider, c.typ, in.GPUCount, in.GPU, c.count, c.gpu)
		}
		if c.count == 0 {
			continue
		}
		if p := price(in, c.region); p.OnDemandUSD != c.onDemand || p.SpotUSD != c.spot {
			t.Errorf("%s %s %s: on-demand %v spot %v, want %v and %v", c.provider, c.typ, c.region, p.OnDemandUSD, p.SpotUSD, c.onDemand, c.spot)
		}
	}
	// Seeweb lists ECS8GPU10 with no region: sold nowhere, not an offer.
	for _, in := range cat.Instances {
		if in.Provider == "seeweb" && in.Type == "ECS8GPU10" {
			t.Error("seeweb ECS8GPU10 (no region in its file) is in the catalog")
		}
	}
	// Every row of a new provider names its file's commit, or (DigitalOcean's
	// MI300X rows) DigitalOcean's pricing page.
	commit := regexp.MustCompile(`@ [0-9a-f]{40}`)
	added := []string{"hyperstack", "jarvislabs", "seeweb", "verda", "yotta", "daytona", "shadeform", "primeintellect", "runpod", "lium", "hyperbolic", "simplepod"}
	for _, in := range cat.Instances {
		switch {
		case slices.Contains(added, in.Provider) && !commit.MatchString(in.Source):
			t.Errorf("%s %s: source %q names no commit", in.Provider, in.Type, in.Source)
		case in.Provider == "do" && strings.HasPrefix(in.Type, "gpu-mi300x") && !strings.Contains(in.Source, "docs.digitalocean.com/products/droplets/details/pricing"):
			t.Errorf("do %s: source %q does not cite DigitalOcean's pricing page", in.Type, in.Source)
		}
	}
	for _, p := range []string{"vast", "lium", "hyperbolic", "simplepod"} {
		if !slices.Contains(model.MarketplaceProviders, p) {
			t.Errorf("%s sells per-host offers but is not a marketplace", p)
		}
	}
	for _, p := range []string{"shadeform", "primeintellect", "runpod", "verda"} {
		if slices.Contains(model.MarketplaceProviders, p) {
			t.Errorf("%s sells list prices but is a marketplace", p)
		}
	}
}
