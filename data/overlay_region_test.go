package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadOverlay loads the embedded catalog with one --catalog file holding
// body, no catalog.d.
func loadOverlayBody(t *testing.T, body string) (string, error) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	p := filepath.Join(t.TempDir(), "o.toml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	c, w, err := LoadWith([]string{p})
	var b strings.Builder
	for _, m := range w {
		b.WriteString(m.String() + "\n")
	}
	if err == nil {
		if g, ok := c.Geo("mycloud", "西北B区"); ok {
			b.WriteString("geo " + g.Country + " " + g.Continent + " " + g.City + "\n")
		}
	}
	return b.String(), err
}

const cnyInstance = `schema_version = 1
provider = "mycloud"

[[instance]]
type = "rtx4090-1x"
gpu = "rtx-4090"
gpu_count = 1
vcpus = 8
memory_gib = 32
currency = "CNY"
source = "test"
as_of = 2026-12-01
prices = [{ region = "%s", on_demand = 30.0 }]
`

// TestOverlayRegionTables: an overlay's [[region]] tables place its
// regions (country checked against CLDR's codes, city a name); a region of
// a provider of its own may be named in Chinese (AutoDL's 西北B区); a
// provider the catalog has keeps ASCII and Latin region names, and the
// refusal says what to write; radicals and compatibility ideographs (look-
// alikes of the ideographs) stay refused.
func TestOverlayRegionTables(t *testing.T) {
	inst := func(region string) string { return strings.Replace(cnyInstance, "%s", region, 1) }
	tests := []struct {
		name, body, want, err string
	}{
		{"Chinese region placed", inst("西北B区") + "\n[[region]]\nregion = \"西北B区\"\ncountry = \"cn\"\ncity = \"Xi'an\"\n", "geo CN asia Xi'an", ""},
		{"Chinese region without a place", inst("西北B区"), "", ""},
		{"unknown country code", inst("西北B区") + "\n[[region]]\nregion = \"西北B区\"\ncountry = \"XY\"\n", "", `country "XY": want an ISO 3166-1 alpha-2 code of a known country`},
		{"a country name is not a code", inst("西北B区") + "\n[[region]]\nregion = \"西北B区\"\ncountry = \"China\"\n", "", `country "China": want an ISO 3166-1 alpha-2 code`},
		{"no country", inst("西北B区") + "\n[[region]]\nregion = \"西北B区\"\n", "", `want country = "CN"`},
		{"twice", inst("西北B区") + "\n[[region]]\nregion = \"西北B区\"\ncountry = \"CN\"\n[[region]]\nregion = \"西北B区\"\ncountry = \"CN\"\n", "", "given twice"},
		{"unknown key", inst("西北B区") + "\n[[region]]\nregion = \"西北B区\"\ncountry = \"CN\"\ncontinent = \"asia\"\n", "", "region.continent"},
		{"Kangxi radical", inst("⼀区"), "", "every instance row has a name the catalog refuses"},
		{"compatibility ideograph", inst("北京\uf900区"), "", "every instance row has a name the catalog refuses"},
		{"a catalog provider's region in Chinese", strings.Replace(inst("西北B区"), `provider = "mycloud"`, `provider = "lambda"`, 1), "", "lambda's regions are named in Latin letters in the catalog"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := loadOverlayBody(t, tt.body)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestChinaCloudRegions: the China example overlays' region ids are in the
// region table with their provider's cities.
func TestChinaCloudRegions(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ provider, region, country, city, continent string }{
		{"alibaba", "cn-hangzhou", "CN", "Hangzhou", "asia"},
		{"alibaba", "cn-wulanchabu", "CN", "Ulanqab", "asia"},
		{"alibaba", "cn-beijing", "CN", "Beijing", "asia"},
		{"alibaba", "eu-central-1", "DE", "Frankfurt", "europe"},
		{"tencent", "ap-guangzhou", "CN", "Guangzhou", "asia"},
		{"tencent", "ap-hongkong", "HK", "Hong Kong", "asia"},
	} {
		g, ok := c.Geo(tt.provider, tt.region)
		if !ok || g.Country != tt.country || g.City != tt.city || g.Continent != tt.continent {
			t.Errorf("Geo(%s, %s) = %+v, %v; want %s, %s, %s", tt.provider, tt.region, g, ok, tt.country, tt.city, tt.continent)
		}
	}
}
