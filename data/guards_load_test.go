package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// A hand-written overlay is guarded at load as catalog update guards a
// fetch (round 3, LOW: it was checked against nothing but its own regions):
// a renamed copy of Lambda's 8×H100 at $3.30 (0.103 of Lambda's
// $3.99 per GPU-hour, under the 0.4 peer fraction), a cut of the real
// type's us-east-1 price to $10 (under half of $31.92) and a region of it
// left alone. The flagged prices are listed but not ranked, said in one
// line with the count, and ranked with TrustOverlays (--trust-overlay).
func TestOverlayGuardedAtLoad(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	overlay := `schema_version = 1
provider = "lambda"

[[instance]]
type = "gpu_8x_h100_sxm5b"
gpu = "h100-sxm"
gpu_count = 8
vcpus = 208
memory_gib = 1800
source = "test overlay: a renamed copy at 90% off"
as_of = 2026-12-01
prices = [{ region = "us-east-1", on_demand = 3.30 }]

[[instance]]
type = "gpu_8x_h100_sxm5"
source = "test overlay: a cut under half"
as_of = 2026-12-01
prices = [{ region = "us-east-1", on_demand = 10.0 }, { region = "us-west-1", on_demand = 31.92 }]
`
	c, path, text := loadHandOverlay(t, dir, overlay)
	for _, want := range []string{
		// The new type's price has no embedded one to stand in; the
		// embedded type's has (RegionPrice.Beside), said apart.
		"catalog " + path + ": 1 region price looks fake or mistyped (the lines below say why) and is not ranked; pass --trust-overlay to rank it",
		"catalog " + path + ": 1 region price looks fake or mistyped (the lines below say why): the embedded catalog's price for that type and region is used instead; pass --trust-overlay to rank the file's",
		"catalog " + path + ": lambda/gpu_8x_h100_sxm5b us-east-1: on-demand $0.4125 per GPU-hour is under 40% of the $3.99 per GPU-hour lambda asks for the same h100-sxm in gpu_8x_h100_sxm5",
		"catalog " + path + ": lambda/gpu_8x_h100_sxm5 us-east-1: on-demand $1.25 per GPU-hour is under half the catalog's $3.99 per GPU-hour for this type and region (69% less)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("warnings lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "us-west-1") {
		t.Errorf("an unchanged price flagged:\n%s", text)
	}
	find := func(c *model.Catalog, typ string) *model.Instance {
		for i := range c.Instances {
			if in := &c.Instances[i]; in.Provider == "lambda" && in.Type == typ {
				return in
			}
		}
		t.Fatalf("%s not listed", typ)
		return nil
	}
	for _, tt := range []struct {
		typ, region string
		held        bool
	}{{"gpu_8x_h100_sxm5b", "us-east-1", true}, {"gpu_8x_h100_sxm5", "us-east-1", true}, {"gpu_8x_h100_sxm5", "us-west-1", false}} {
		in := find(c, tt.typ)
		rp := regionPrice(in, tt.region)
		if rp.Held != tt.held {
			t.Errorf("%s %s: Held = %v, want %v", tt.typ, tt.region, rp.Held, tt.held)
		}
		if wantEmb := tt.held && tt.typ == "gpu_8x_h100_sxm5"; (rp.Beside != nil) != wantEmb || wantEmb && (rp.Beside.OnDemandUSD != 31.92 || rp.Beside.Held || rp.Beside.Patch == nil || rp.Beside.Patch.Origin != "embedded") {
			t.Errorf("%s %s: Embedded = %+v, want the catalog's $31.92 (embedded) only on the embedded type's held price", tt.typ, tt.region, rp.Beside)
		}
		if _, ok := c.Price(in, rp, model.OnDemand, nil); ok == tt.held {
			t.Errorf("%s %s: ranked = %v, want %v", tt.typ, tt.region, ok, !tt.held)
		}
		c.TrustOverlays = true
		if _, ok := c.Price(in, rp, model.OnDemand, nil); !ok {
			t.Errorf("%s %s: not ranked with TrustOverlays", tt.typ, tt.region)
		}
		c.TrustOverlays = false
	}
	// The compiled catalog's prices are untouched.
	base, _ := Load()
	if rp := regionPrice(find(base, "gpu_8x_h100_sxm5"), "us-east-1"); rp.Held || rp.OnDemandUSD != 31.92 {
		t.Errorf("embedded gpu_8x_h100_sxm5 us-east-1 = %+v", rp)
	}
}

// LookKey's ASCII table gives the skeleton's key for every ASCII
// character and for names mixing them.
func TestLookKeyASCIITable(t *testing.T) {
	var all []string
	for c := range 128 {
		all = append(all, string(rune(c)))
	}
	all = append(all, "gpu_8x_h1OO_sxm5", "GPU-1X-H100-PCIE", "us-east-l", "Standard_ND96isr_H100_v5", "rn m M", "p4d.24xlarge")
	for _, s := range all {
		if got, want := LookKey(s), lookKeySlow(s); got != want {
			t.Errorf("LookKey(%q) = %q, want %q", s, got, want)
		}
	}
	if LookKey("gpu_8x_h1OO_sxm5") != LookKey("gpu_8x_h100_sxm5") || LookKey("us-éast-1") != LookKey("us-east-1") {
		t.Error("look-alikes read apart")
	}
}

// An overlay raising a price over twice the catalog's (attack round 13:
// an overlay with every lambda price ×50 pushed lambda out of the
// rankings) is held at load as a cut is: one line with the count, not
// ranked, and ranked with TrustOverlays (--trust-overlay).
func TestOverlayRiseHeldAtLoad(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	overlay := `schema_version = 1
provider = "lambda"

[[instance]]
type = "gpu_8x_h100_sxm5"
source = "test overlay: a price ×50"
as_of = 2026-12-01
prices = [{ region = "us-east-1", on_demand = 1596.0 }, { region = "us-west-1", on_demand = 63.84 }]
`
	c, path, text := loadHandOverlay(t, dir, overlay)
	// 1596 / 8 = 199.50 against 31.92 / 8 = 3.99: 4900% more; 63.84 is
	// twice exactly, kept.
	for _, want := range []string{
		"catalog " + path + ": 1 region price looks fake or mistyped (the lines below say why): the embedded catalog's price for that type and region is used instead; pass --trust-overlay to rank the file's",
		"catalog " + path + ": lambda/gpu_8x_h100_sxm5 us-east-1: on-demand $199.50 per GPU-hour is over twice the catalog's $3.99 per GPU-hour for this type and region (4900% more)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("warnings lack %q:\n%s", want, text)
		}
	}
	var in *model.Instance
	for i := range c.Instances {
		if c.Instances[i].Provider == "lambda" && c.Instances[i].Type == "gpu_8x_h100_sxm5" {
			in = &c.Instances[i]
		}
	}
	for _, tt := range []struct {
		region string
		held   bool
	}{{"us-east-1", true}, {"us-west-1", false}} {
		rp := regionPrice(in, tt.region)
		if _, ok := c.Price(in, rp, model.OnDemand, nil); rp.Held != tt.held || ok == tt.held {
			t.Errorf("%s: Held = %v, ranked = %v; want held %v", tt.region, rp.Held, ok, tt.held)
		}
	}
	c.TrustOverlays = true
	if _, ok := c.Price(in, regionPrice(in, "us-east-1"), model.OnDemand, nil); !ok {
		t.Errorf("us-east-1 not ranked with TrustOverlays")
	}
}

// loadHandOverlay writes overlay as catalog.d/hand.toml under dir (the
// XDG_CONFIG_HOME the test set), loads the catalog and returns it, the
// overlay's path and the load warnings, one per line.
func loadHandOverlay(t *testing.T, dir, overlay string) (*model.Catalog, string, string) {
	t.Helper()
	path := filepath.Join(dir, "gpuplan", "catalog.d", "hand.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	c, warns, err := LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, w := range warns {
		lines = append(lines, w.String())
	}
	return c, path, strings.Join(lines, "\n")
}
