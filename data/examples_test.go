package data

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// pricePlaceholder is the commented-out price line each example instance
// carries; a user replaces it by a real CNY price (docs/data.md, "China clouds").
var pricePlaceholder = regexp.MustCompile(`(?m)^# prices = \[\{ region = "([^"]+)", on_demand = 0\.0 \}\]$`)

// loadExample writes body to a temporary catalog.d-like file and loads it
// over the embedded catalog with the real loader, isolated from the
// user's own overlays.
func loadExample(t *testing.T, name, body string) (*model.Catalog, error) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	t.Setenv("HOME", dir)
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	c, _, err := LoadWith([]string{p})
	return c, err
}

// TestChinaExampleOverlays loads each example overlay as shipped (refused:
// no price is invented, and the schema has no unpriced row) and after the
// user's edit (a CNY price per region), checks the documented shapes, and
// that CNY rows rank only with an exchange rate.
func TestChinaExampleOverlays(t *testing.T) {
	type shape struct {
		gpu          string
		gpus, vcpus  int
		memGiB       float64
		interconnect string
	}
	files := map[string]map[string]shape{
		"alibaba.toml": {
			"ecs.gn7i-c8g1.2xlarge": {"a10", 1, 8, 30, ""},           // Alibaba gn7i page (audit §5)
			"ecs.gn8is.2xlarge":     {"l20", 1, 8, 64, ""},           // gn8is: 1x L20, 8 vCPU, 64 GiB
			"ecs.gn8v-8x.48xlarge":  {"h20", 8, 192, 1024, "nvlink"}, // gn8v-8x: 192 vCPU, 1024 GiB
		},
		"tencent.toml": {
			"GN7.2XLARGE32": {"t4", 1, 8, 32, ""}, // 2XLARGE = 8 vCPU, 32 GB
		},
		"autodl.toml": { // AutoDL docs' example share: 8 cores, 32 GB per GPU
			"rtx4090-1x":   {"rtx-4090", 1, 8, 32, ""},
			"a800-80gb-1x": {"a800-pcie-80gb", 1, 8, 32, ""},
			"h800-1x":      {"h800-pcie", 1, 8, 32, ""},
			"l20-1x":       {"l20", 1, 8, 32, ""},
		},
	}
	// A made-up test price, in CNY per instance-hour: ¥70 at 0.14 is $9.80,
	// above every floor of the price guards even on 8 GPUs ($1.23 per
	// GPU-hour; ¥7 for the 8×H20 is held: TestCurrencyRowsGuardedConverted).
	const cnyPerHour = 70.0
	const usdPerCNY = 0.14
	for name, want := range files {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("catalog", "examples", name))
			if err != nil {
				t.Fatal(err)
			}
			if n := len(pricePlaceholder.FindAll(b, -1)); n != len(want) {
				t.Fatalf("%d price placeholders, want one per instance (%d)", n, len(want))
			}
			if _, err := loadExample(t, name, string(b)); err == nil || !strings.Contains(err.Error(), "missing prices") {
				t.Fatalf("as shipped: err = %v, want the loader to refuse unpriced instances", err)
			}
			filled := pricePlaceholder.ReplaceAllString(string(b), `prices = [{ region = "$1", on_demand = 70.0 }]`)
			c, err := loadExample(t, name, filled)
			if err != nil {
				t.Fatalf("after filling in prices: %v", err)
			}
			provider := strings.TrimSuffix(name, ".toml")
			seen := 0
			for i := range c.Instances {
				in := &c.Instances[i]
				if in.Provider != provider {
					continue
				}
				seen++
				w, ok := want[in.Type]
				if !ok {
					t.Errorf("unexpected instance %s", in.Type)
					continue
				}
				got := shape{in.GPU, in.GPUCount, in.VCPUs, in.MemoryGiB, in.Interconnect}
				if got != w {
					t.Errorf("%s: shape %+v, want %+v", in.Type, got, w)
				}
				if in.PriceCurrency() != "CNY" || len(in.Prices) != 1 || in.Prices[0].OnDemandUSD != cnyPerHour {
					t.Fatalf("%s: currency %s prices %+v, want one CNY %v row", in.Type, in.PriceCurrency(), in.Prices, cnyPerHour)
				}
				rp := &in.Prices[0]
				if c.Ranked(in, rp, model.OnDemand, nil) {
					t.Errorf("%s: a CNY row is ranked without an exchange rate", in.Type)
				}
				if c.Ranked(in, rp, model.OnDemand, map[string]float64{"EUR": 1.1}) {
					t.Errorf("%s: a CNY row is ranked with only a EUR rate", in.Type)
				}
				if !c.Ranked(in, rp, model.OnDemand, map[string]float64{"CNY": usdPerCNY}) {
					t.Errorf("%s: a CNY row is not ranked with a CNY rate", in.Type)
				}
				if c.Ranked(in, rp, model.Spot, map[string]float64{"CNY": usdPerCNY}) {
					t.Errorf("%s: ranked as spot, a mode the overlay does not price", in.Type)
				}
				if _, err := c.GPU(in.GPU); err != nil {
					t.Errorf("%s: %v", in.Type, err)
				}
			}
			if seen != len(want) {
				t.Errorf("%d %s instances loaded, want %d", seen, provider, len(want))
			}
		})
	}
}
