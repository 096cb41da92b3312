package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestGuards runs each guard on a real-looking row. Prices are those of
// the SkyPilot snapshot (catalog audit #1, #5) unless the case says.
func TestGuards(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	// a3-highgpu-8g list prices of four regions (gcp.toml) and the DWS price
	// SkyPilot put in us-central1 (43.06615 = 1.18… VM + GPU DWS SKU).
	a3 := model.Instance{Provider: "gcp", Type: "a3-highgpu-8g", GPU: "h100-sxm", GPUCount: 8, Prices: []model.RegionPrice{
		{Region: "asia-east1", OnDemandUSD: 101.70125, SpotUSD: 25.47229},
		{Region: "asia-south1", OnDemandUSD: 91.34574, SpotUSD: 20.89285},
		{Region: "europe-west4", OnDemandUSD: 111.81719, SpotUSD: 25.56429},
		{Region: "us-central1", OnDemandUSD: 43.06615, SpotUSD: 26.83013},
	}}
	tests := []struct {
		name, rule, region string
		in                 model.Instance
	}{
		{"DWS price far below the type's median", "below-median", "us-central1", a3},
		// A100-80GB us-central1 GPU row: on-demand 1.8462, spot 1.964.
		{"on-demand below spot", "spot-above-on-demand", "us-central1", model.Instance{Provider: "gcp", Type: "a2-ultragpu-1g", GPU: "a100-80gb", GPUCount: 1,
			Prices: []model.RegionPrice{{Region: "us-central1", OnDemandUSD: 1.8462, SpotUSD: 1.964}}}},
		// Azure NC24ads_A100_v4 before the fix: PCIe card on the SXM entry.
		{"PCIe type on an SXM GPU", "form-factor", "", model.Instance{Provider: "fluidstack", Type: "A100_PCIE_80GB::1", GPU: "a100-80gb", GPUCount: 1,
			Prices: []model.RegionPrice{{Region: "NORWAY_4", OnDemandUSD: 1.8}}}},
		{"SXM type on a PCIe card", "form-factor", "", model.Instance{Provider: "lambda", Type: "gpu_1x_a100_sxm4", GPU: "a100-pcie-40gb", GPUCount: 1,
			Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 1.29}}}},
		// Hyperstack n3-H100x8-NVLink before the fix (new-user walk).
		{"PCIe accelerator on an SXM GPU", "form-factor", "", model.Instance{Provider: "hyperstack", Type: "n3-H100x8-NVLink", GPU: "h100-sxm", GPUCount: 8,
			SkyPilotAccelerator: "H100-80G-PCIe-NVLink", Prices: []model.RegionPrice{{Region: "CANADA-1", OnDemandUSD: 15.6}}}},
		{"NVSwitch between PCIe cards", "form-factor", "", model.Instance{Provider: "hyperstack", Type: "n3-H100x8", GPU: "h100-pcie", GPUCount: 8,
			Interconnect: "nvswitch", Prices: []model.RegionPrice{{Region: "CANADA-1", OnDemandUSD: 15.2}}}},
		{"region the provider does not have", "unknown-region", "us-east-11", model.Instance{Provider: "aws", Type: "p4d.24xlarge", GPU: "a100-40gb", GPUCount: 8,
			Prices: []model.RegionPrice{{Region: "us-east-11", OnDemandUSD: 21.957642}}}},
	}
	known := KnownRegions(c)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Guards(c, []model.Instance{tt.in}, known)
			n := 0
			for _, g := range got {
				if g.Rule == tt.rule && g.Region == tt.region {
					n++
				}
			}
			if n != 1 {
				t.Errorf("Guards() = %v, want one %s in %q", got, tt.rule, tt.region)
			}
		})
	}
	// The list prices themselves pass.
	clean := a3
	clean.Prices = a3.Prices[:3]
	if got := Guards(c, []model.Instance{clean}, known); len(got) != 0 {
		t.Errorf("list prices flagged: %v", got)
	}
	if got := Guards(c, c.Instances, known); len(got) != 0 {
		t.Errorf("the embedded catalog trips %d guards, first %v", len(got), got[0])
	}
}

// TestRankedOffers: no ranked offer is retired, reservation-only or
// priced below its own spot price, for the embedded catalog and with an
// overlay that tries each (LoadWith keeps them listable, Recommend never
// ranks them).
func TestRankedOffers(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	overlay := `schema_version = 1
provider = "gcp"

[[instance]]
type = "a4-highgpu-8g"
source = "test overlay: reservation only"
as_of = 2026-12-01
prices = [{ region = "us-central1", reservation = true, flex_start = 60.0 }]

[[instance]]
provider = "aws"
type = "p3.2xlarge"
source = "test overlay: a price for a retired type"
as_of = 2026-12-01
prices = [{ region = "us-east-1", on_demand = 0.5 }]

[[instance]]
provider = "lambda"
type = "gpu_1x_a10"
missing_since = 2026-12-01
missing_source = "test overlay: not in the latest fetch"

[[instance]]
provider = "zz"
type = "cheap-1"
gpu = "h100-sxm"
gpu_count = 1
vcpus = 16
memory_gib = 128
source = "test overlay: CNY without an exchange rate"
as_of = 2026-12-01
currency = "CNY"
prices = [{ region = "r1", on_demand = 1.0 }]
`
	if err := os.MkdirAll(filepath.Join(dir, "gpuplan", "catalog.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gpuplan", "catalog.d", "z.toml"), []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	embedded, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	overlaid, warns, err := LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = warns
	for name, c := range map[string]*model.Catalog{"embedded": embedded, "overlay": overlaid} {
		arch, _ := c.Model("llama-3.1-8b")
		w := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 2048}, Model: *arch}
		for _, mode := range []model.Pricing{model.OnDemand, model.Spot, model.FlexStart, model.Reserved1y} {
			rec, err := model.Recommend(w, c, model.Query{Pricing: mode, Providers: []string{"aws", "gcp", "azure", "lambda", "oci", "nebius", "cudo", "zz"}})
			if err != nil {
				t.Fatalf("%s %s: %v", name, mode, err)
			}
			for _, o := range rec.Offers {
				in := o.Instance
				rp := regionPrice(in, o.Region)
				switch {
				case in.Retired != "":
					t.Errorf("%s %s: ranked retired %s/%s", name, mode, in.Provider, in.Type)
				case in.MissingSince != "":
					t.Errorf("%s %s: ranked %s/%s, missing from the latest fetch", name, mode, in.Provider, in.Type)
				case (mode == model.OnDemand || mode == model.Reserved1y) && rp.OnDemandUSD <= 0:
					t.Errorf("%s %s: ranked %s/%s %s with no on-demand price (reservation or flex-start only)", name, mode, in.Provider, in.Type, o.Region)
				case rp.OnDemandUSD > 0 && rp.SpotUSD > rp.OnDemandUSD && mode != model.Spot:
					t.Errorf("%s %s: ranked %s/%s %s priced below its own spot", name, mode, in.Provider, in.Type, o.Region)
				case in.PriceCurrency() != "USD":
					t.Errorf("%s %s: ranked %s/%s in %s without an exchange rate", name, mode, in.Provider, in.Type, in.PriceCurrency())
				}
			}
		}
	}
	// Retired types stay listable and the overlay names itself.
	var p3 *model.Instance
	for _, in := range overlaid.Listed(true) {
		if in.Type == "p3.2xlarge" {
			p3 = in
		}
	}
	if p3 == nil || p3.Retired == "" || !strings.HasSuffix(regionPrice(p3, "us-east-1").Patched().Origin, "z.toml") {
		t.Errorf("p3.2xlarge = %+v, want retired, listed, its us-east-1 price from z.toml", p3)
	}
	// A type missing from the latest fetch is listed with --all only, and
	// the same query that ranks it from the embedded catalog does not.
	listed := func(c *model.Catalog, all bool) bool {
		for _, in := range c.Listed(all) {
			if in.Provider == "lambda" && in.Type == "gpu_1x_a10" {
				return true
			}
		}
		return false
	}
	if !listed(overlaid, true) || listed(overlaid, false) || !listed(embedded, false) {
		t.Errorf("gpu_1x_a10 listed: overlay --all %v, overlay %v, embedded %v; want true, false, true", listed(overlaid, true), listed(overlaid, false), listed(embedded, false))
	}
	arch, _ := embedded.Model("llama-3.1-8b")
	w := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, MicroBatch: 1, SeqLen: 2048}, Model: *arch}
	q := model.Query{Pricing: model.OnDemand, Providers: []string{"lambda"}, GPUs: []string{"a10"}}
	ranks := func(c *model.Catalog) bool {
		rec, err := model.Recommend(w, c, q)
		if err != nil { // "no offers": with the one A10 type missing, nothing is left to rank
			return false
		}
		for _, o := range rec.Offers {
			if o.Instance.Type == "gpu_1x_a10" {
				return true
			}
		}
		return false
	}
	if !ranks(embedded) || ranks(overlaid) {
		t.Errorf("gpu_1x_a10 ranked: embedded %v, overlay %v; want true, false", ranks(embedded), ranks(overlaid))
	}
}

func regionPrice(in *model.Instance, region string) *model.RegionPrice {
	for i := range in.Prices {
		if in.Prices[i].Region == region {
			return &in.Prices[i]
		}
	}
	return &model.RegionPrice{}
}
