package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// loadOverlay writes body to a --catalog file in a fresh config dir and
// loads it: the catalog (nil on error), its warnings joined, the error.
func loadOverlay(t *testing.T, body string) (*model.Catalog, string, string, error) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	path := filepath.Join(dir, "ov.toml")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	c, warns, err := LoadWith([]string{path})
	var lines []string
	for _, w := range warns {
		lines = append(lines, w.String())
	}
	return c, strings.Join(lines, "\n"), path, err
}

func regionOf(t *testing.T, c *model.Catalog, provider, typ, region string) (*model.Instance, *model.RegionPrice) {
	t.Helper()
	for i := range c.Instances {
		in := &c.Instances[i]
		if in.Provider == provider && in.Type == typ {
			for j := range in.Prices {
				if in.Prices[j].Region == region {
					return in, &in.Prices[j]
				}
			}
		}
	}
	t.Fatalf("%s/%s %s not in the catalog", provider, typ, region)
	return nil, nil
}

// Attack round 10, M1: an overlay's flex-start and capacity-block prices
// skipped the price guards ($0.05/h for gcp a3-highgpu-8g, 8 × H100, was
// listed first, unheld). They are judged against the GPU's on-demand
// floor: $0.05/8 = $0.00625 per GPU-hour is far under half of the
// cheapest H100 on demand; a price at GCP's own list level is not held.
func TestOverlayModesGuarded(t *testing.T) {
	for _, tc := range []struct {
		name, prices string
		held         bool
	}{
		{"flex-start fake", `flex_start = 0.05`, true},
		{"capacity-block fake", `capacity_block = 0.05`, true},
		{"flex-start at list level", `flex_start = 40.0`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, warns, _, err := loadOverlay(t, `schema_version = 1
[[instance]]
provider = "gcp"
type = "a3-highgpu-8g"
source = "x"
as_of = 2026-12-01
prices = [{ region = "us-central1", `+tc.prices+` }]
`)
			if err != nil {
				t.Fatal(err)
			}
			in, rp := regionOf(t, c, "gcp", "a3-highgpu-8g", "us-central1")
			if rp.Held != tc.held {
				t.Fatalf("held = %v, want %v; warnings:\n%s", rp.Held, tc.held, warns)
			}
			for _, p := range []model.Pricing{model.FlexStart, model.CapacityBlock} {
				if _, ok := rp.Price(p); ok && c.Ranked(in, rp, p, nil) == tc.held {
					t.Errorf("%s ranked = %v with held %v", p, !tc.held, tc.held)
				}
			}
			if tc.held && !strings.Contains(warns, "below half the lowest on-demand price the catalog lists for h100-sxm") {
				t.Errorf("no below-floor line:\n%s", warns)
			}
		})
	}
}

// Attack round 10, S1: an overlay's [[discount]] of 0.99 made
// p5.48xlarge $0.55/h under reserved-1y, marked as embedded and ranked
// first. A fraction above the deepest published discount (0.72, AWS and
// Azure "up to 72%") is refused in one line naming the file; one within
// it makes overlay prices (origin = the file), and a reserved price it
// gives below half the GPU's on-demand floor is held: not ranked unless
// TrustOverlays. The held case discounts the instance at its GPU's
// on-demand reference itself by 70%: 0.30 × ref < 0.5 × ref.
func TestOverlayDiscountBoundedAndGuarded(t *testing.T) {
	base := sharedCatalog()
	floors := baseFloors()
	var cheap *model.Instance // an aws type priced at its GPU's on-demand reference
	var cheapRegion string
	for i := range base.Instances {
		in := &base.Instances[i]
		if in.Provider != "aws" || !in.Offered() || in.GPUCount <= 0 || in.PriceCurrency() != "USD" {
			continue
		}
		g, err := base.GPU(in.GPU)
		if err != nil {
			continue
		}
		od, _ := floors.references(g)
		for _, p := range in.Prices {
			if p.OnDemandUSD > 0 && p.OnDemandUSD/float64(in.GPUCount) <= od.usd*1.0001 {
				cheap, cheapRegion = in, p.Region
			}
		}
	}
	if cheap == nil {
		t.Skip("no aws type at its GPU's on-demand reference")
	}
	for _, tc := range []struct {
		name, fraction, prefix string
		refused                string // the error's text, "" when loaded
		held                   bool
	}{
		{"above the published cap", "0.99", "p5.", "fraction 0.99 is above 0.72, the deepest reserved or committed-use discount any provider publishes", false},
		{"empty prefix", "0.3", "", `prefixes[1] is empty`, false},
		{"at the cap, p5", "0.72", "p5.", "", false},
		{"deep on the market's cheapest", "0.7", cheap.Type, "", true},
		{"shallow on the market's cheapest", "0.3", cheap.Type, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, warns, path, err := loadOverlay(t, `schema_version = 1
[[discount]]
provider = "aws"
term = "reserved-1y"
fraction = `+tc.fraction+`
prefixes = ["`+tc.prefix+`"]
source = "test contract"
as_of = 2026-12-01
`)
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) || !strings.Contains(err.Error(), path) {
					t.Fatalf("err = %v, want %q naming %s", err, tc.refused, path)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			typ, region := cheap.Type, cheapRegion
			if tc.prefix == "p5." {
				typ, region = "p5.48xlarge", "us-east-1"
			}
			in, rp := regionOf(t, c, "aws", typ, region)
			d := c.DiscountFor(in, model.Reserved1y)
			if d == nil || d.Origin != path {
				t.Fatalf("discount %+v, want origin %s", d, path)
			}
			o := model.Offer{Instance: in, Region: rp.Region, Pricing: model.Reserved1y, Discount: d}
			if _, origin := o.Provenance(); origin != path {
				t.Errorf("offer origin %q, want %s", origin, path)
			}
			if held := d.HeldFor(in.Type, rp.Region); held != tc.held {
				t.Fatalf("held = %v, want %v; warnings:\n%s", held, tc.held, warns)
			}
			if c.Ranked(in, rp, model.Reserved1y, nil) == tc.held {
				t.Errorf("ranked with held %v", tc.held)
			}
			if !c.Ranked(in, rp, model.OnDemand, nil) {
				t.Errorf("on-demand price not ranked: the discount holds only reserved prices")
			}
			if tc.held {
				if !strings.Contains(warns, "reserved prices its discount gives look fake or mistyped") {
					t.Errorf("no held line:\n%s", warns)
				}
				c.TrustOverlays = true
				if !c.Ranked(in, rp, model.Reserved1y, nil) {
					t.Errorf("not ranked with TrustOverlays")
				}
			}
		})
	}
}

// Attack round 10, S2 (a): a model whose shape gives a count far from its
// own published_params is refused in one line: the 2-layer, 512-wide
// llama-3.1-70b (6.27e6 parameters by the formula against 7.06e10
// published). The tolerance is TestParamCounts' 1%: the embedded 70B's
// own shape passes, params written 2% off are refused.
func TestOverlayModelParamsAgree(t *testing.T) {
	shape := `layers = 80
hidden = 8192
heads = 64
kv_heads = 8
ffn = 28672
gated_mlp = true
vocab = 128256
norm = "rmsnorm"
max_positions = 131072`
	for _, tc := range []struct{ name, body, refused string }{
		{"tiny shape", `layers = 2
hidden = 512
heads = 8
kv_heads = 8
ffn = 1024
gated_mlp = true
vocab = 1000
max_positions = 131072`, "the shape (layers, hidden, heads, ffn, vocab...) gives 6.272e+06 parameters, 100% from published_params 7.055e+10"},
		{"params 2% off", shape + "\nparams = 71966000000", "params 7.197e+10 is 2% from published_params 7.055e+10"},
		{"the published shape", shape, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, path, err := loadOverlay(t, `schema_version = 1
[[model]]
key = "my-70b"
name = "My 70B"
family = "decoder"
published_params = 70553706496
params_source = "x"
`+tc.body+`
source = "x"
as_of = 2026-11-30
`)
			if tc.refused == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(c.Redefined) != 0 {
					t.Errorf("a new key redefines nothing: %+v", c.Redefined)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.refused) || !strings.Contains(err.Error(), path) || strings.Count(err.Error(), "\n") != 0 {
				t.Fatalf("err = %v, want one line with %q", err, tc.refused)
			}
		})
	}
}

// Attack round 10, S2 (b): an overlay entry under an embedded GPU's or
// model's key that changes its figures is recorded (model.Catalog.
// Redefined, refused by the command line unless --trust-overlay) with
// what changed; one that changes only the name or source is not.
func TestOverlayRedefinitionsRecorded(t *testing.T) {
	t4 := func(mem string) string {
		return `schema_version = 1
[[gpu]]
key = "t4"
name = "NVIDIA T4 (ours)"
aliases = ["T4", "Tesla T4"]
vendor = "nvidia"
architecture = "turing"
compute_capability = "7.5"
memory_gib = ` + mem + `
usable_memory_mib = 15102
memory_bandwidth_gbps = 320
fp32_tflops = 8.1
fp16_tflops = 65
int8_tops = 130
interconnect = "pcie"
interconnect_gbps = 32
tdp_w = 70
source = "our notes"
as_of = 2026-12-01
`
	}
	base := sharedCatalog()
	g, err := base.GPU("t4")
	if err != nil {
		t.Fatal(err)
	}
	if g.MemoryGiB != 16 || g.BF16TFLOPS != 0 || g.TF32TFLOPS != 0 || g.FP8TFLOPS != 0 {
		t.Fatalf("embedded t4 changed (%+v): rewrite the overlay above to match it", g)
	}
	for _, tc := range []struct {
		name, body string
		want       []string // Changes, nil when not a redefinition
	}{
		{"memory", t4("800"), []string{"memory_gib 16 → 800"}},
		{"same figures, new name and source", t4("16"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, path, err := loadOverlay(t, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			wantRedefined(t, c, path, "gpu", "t4", tc.want)
		})
	}
}

// Attack round 10, M3: an overlay instance's host is bounded by
// MaxVCPUs and MaxHostMemoryGiB (twice the largest instance any cloud
// sells): above is refused in one line; the embedded catalog's largest
// GPU host (4,096 GiB, 288 vCPUs) loads.
func TestOverlayHostBounded(t *testing.T) {
	for _, tc := range []struct{ name, vcpus, mem, refused string }{
		{"absurd memory", "208", "99999999", "memory_gib 9.9999999e+07 is above 65536"},
		{"absurd vcpus", "99999", "1800", "vcpus 99999 is above 2048"},
		{"largest GPU host", "288", "4096", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, path, err := loadOverlay(t, `schema_version = 1
[[instance]]
provider = "lambda"
type = "gpu_8x_h100_host"
gpu = "h100-sxm"
gpu_count = 8
vcpus = `+tc.vcpus+`
memory_gib = `+tc.mem+`
source = "x"
as_of = 2026-12-01
prices = [{ region = "us-east-1", on_demand = 23.92 }]
`)
			if tc.refused == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.refused) || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line with %q", err, tc.refused)
			}
		})
	}
}

// wantRedefined checks c recorded no redefinition when want is nil, else
// exactly one: of kind/key, from path, with want as its changes.
func wantRedefined(t *testing.T, c *model.Catalog, path, kind, key string, want []string) {
	t.Helper()
	if want == nil {
		if len(c.Redefined) != 0 {
			t.Fatalf("Redefined = %+v, want none", c.Redefined)
		}
		return
	}
	if len(c.Redefined) != 1 {
		t.Fatalf("Redefined = %+v, want one", c.Redefined)
	}
	if r := c.Redefined[0]; r.Origin != path || r.Kind != kind || r.Key != key || strings.Join(r.Changes, "; ") != strings.Join(want, "; ") {
		t.Errorf("got %+v, want %s %s from %s changing %v", r, kind, key, path, want)
	}
}
