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
