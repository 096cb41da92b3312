package data

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
)

// noGeography are the regions whose provider names no place: Daytona's
// sandboxes run in "earth", Hyperbolic's marketplace in "default".
var noGeography = map[[2]string]bool{{"daytona", "earth"}: true, {"hyperbolic", "default"}: true}

// TestRegionGeographyCoverage: every region of every provider in the
// embedded catalog has a country or at least a continent (regions.toml or
// the provider's naming rule), except the two that name no place.
func TestRegionGeographyCoverage(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[2]string]bool{}
	var withCity, withCountry, continentOnly int
	for i := range c.Instances {
		in := &c.Instances[i]
		for _, p := range in.Prices {
			k := [2]string{in.Provider, p.Region}
			if seen[k] {
				continue
			}
			seen[k] = true
			g, ok := c.Geo(in.Provider, p.Region)
			switch {
			case noGeography[k]:
				if ok {
					t.Errorf("%s %q is placed (%+v); the table says it names no place", k[0], k[1], g)
				}
			case !ok || g.Continent == "":
				t.Errorf("%s region %q has no geography; add it to catalog/regions.toml with its source", k[0], k[1])
			case g.Country == "":
				continentOnly++
			case g.City != "":
				withCity++
				withCountry++
			default:
				withCountry++
			}
		}
	}
	t.Logf("%d provider regions: %d with country (%d with city), %d with continent only, %d with no place", len(seen), withCountry, withCity, continentOnly, len(noGeography))
	providers := map[string]bool{}
	for _, p := range c.Regions {
		if providers[p.Provider] {
			t.Errorf("regions.toml: provider %s twice", p.Provider)
		}
		providers[p.Provider] = true
		if p.Source == "" || p.AsOf == "" {
			t.Errorf("regions.toml: provider %s without source or as_of", p.Provider)
		}
	}
	for _, p := range c.OfferedProviders() {
		if !providers[p] && p != "daytona" && p != "hyperbolic" {
			t.Errorf("provider %s has no block in regions.toml", p)
		}
	}
}

// TestOffersInEurope is issue 31 #1: `gpuplan offers H100:8 --regions
// europe-` showed Lambda at $31.92 as the cheapest and missed Nebius
// eu-north1 ($23.60), Fluidstack FINLAND ($23.92) and the European
// regions of AWS and GCP, because each provider names its regions its own
// way. --regions europe lists the cheapest European 8×H100 of every
// provider that has one (prices of the embedded catalog, read from the
// instance files by hand); the US never leaks in.
func TestOffersInEurope(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := market.ParseGPUSpec("H100:8", c)
	if err != nil {
		t.Fatal(err)
	}
	res, err := market.Browse(c, market.Query{GPUs: []market.GPUSpec{spec}, Regions: []string{"europe"}})
	if err != nil {
		t.Fatal(err)
	}
	cheapest := map[string]string{} // provider → "type region $"
	for _, r := range res.Rows {
		if r.Geo().Continent != "europe" {
			t.Errorf("%s %s in %s (%s) is not in Europe", r.Instance.Provider, r.Instance.Type, r.Region, r.Geo().Country)
		}
		if _, ok := cheapest[r.Instance.Provider]; !ok {
			cheapest[r.Instance.Provider] = fmt.Sprintf("%s %s $%.2f", r.Instance.Type, r.Region, r.USDPerHour)
		}
	}
	// Fluidstack's H100_NVLINK_80GB::8 (FINLAND, $23.92) is not an H100
	// SXM: 8 × H100 PCIe with NVLink bridges (form-factor audit).
	want := map[string]string{
		"primeintellect": "datacrunch__8xH100_80GB__176__1480 FI $15.77",
		"nebius":         "gpu-h100-sxm_8gpu-128vcpu-1600gb eu-north1 $23.60",
		"runpod":         "8x_H100-SXM_SECURE CZ $23.92", // v7 file: CZ is data center EU-CZ-1, Czechia
		"lambda":         "gpu_8x_h100_sxm5 europe-central-1 $31.92",
		"aws":            "p5.48xlarge eu-north-1 $58.89",
		"gcp":            "a3-highgpu-8g europe-north1 $96.71",
	}
	for p, w := range want {
		if got := cheapest[p]; got != w {
			t.Errorf("cheapest European 8×H100 of %s = %q, want %q", p, got, w)
		}
	}
	// No provider with an offer there is missing: every provider listed
	// is one of want (the marketplaces are left out of offers, not here).
	for p := range cheapest {
		if _, ok := want[p]; !ok && !slices.Contains(model.MarketplaceProviders, p) {
			t.Errorf("unexpected provider %s: %s; add it to want after checking its region", p, cheapest[p])
		}
	}
	// The prefix syntax keeps working: europe- is GCP's naming only.
	res, err = market.Browse(c, market.Query{GPUs: []market.GPUSpec{spec}, Regions: []string{"europe-"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		if !strings.HasPrefix(r.Region, "europe-") {
			t.Errorf("--regions europe- gave %s %s", r.Instance.Provider, r.Region)
		}
	}
	if len(res.Rows) == 0 {
		t.Error("--regions europe- lists nothing")
	}
	// --country picks one country across providers' namings.
	res, err = market.Browse(c, market.Query{GPUs: []market.GPUSpec{spec}, Countries: []string{"de"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Rows {
		got = append(got, r.Instance.Provider+" "+r.Region)
	}
	slices.Sort(got)
	got = slices.Compact(got)
	wantDE := []string{"gcp europe-west3", "lambda europe-central-1"}
	if !slices.Equal(got, wantDE) {
		t.Errorf("--country de: %v, want %v", got, wantDE)
	}
}

func TestDecodeRegionsErrors(t *testing.T) {
	const head = "schema_version = 1\n[[provider]]\nprovider = \"aws\"\nsource = \"x\"\nas_of = 2026-12-02\n"
	tests := []struct{ name, toml, want string }{
		{"lower-case country", head + `regions = [{ region = "eu-central-1", country = "de" }]`, `country "de": want an upper-case ISO 3166-1 alpha-2 code`},
		{"unknown country", head + `regions = [{ region = "eu-central-1", country = "XX" }]`, `country "XX"`},
		{"unknown continent", head + `regions = [{ region = "eu-central-1", continent = "atlantis" }]`, `continent "atlantis": want africa, asia`},
		{"no place", head + `regions = [{ region = "eu-central-1" }]`, "want a country or a continent"},
		{"twice", head + `regions = [{ region = "a", country = "DE" }, { region = "a", country = "FR" }]`, `region "a" twice`},
		{"unknown rule", head + `rule = "iso"`, `rule "iso": want iso-country`},
		{"nothing", head, "no regions and no rule"},
		{"no source", "schema_version = 1\n[[provider]]\nprovider = \"aws\"\nas_of = 2026-12-02\nrule = \"iso-country\"\n", "missing source"},
		{"unknown key", head + "rule = \"iso-country\"\nflag = true\n", "flag"},
		{"control character", head + "regions = [{ region = \"a\\u001b\", country = \"DE\" }]", "want the provider's region name"},
		{"schema", "schema_version = 2\n", "want schema_version = 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeRegions([]byte(tt.toml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("decodeRegions() error = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestLambdaRegionCountries (walk49): each Lambda region's country as
// Lambda's own docs state it (regions.toml's source): me-west-1 is Israel
// and asia-northeast-1 Japan (both had none), asia-northeast-2 Japan;
// europe-south-1, which no Lambda page found places, keeps its continent
// only.
func TestLambdaRegionCountries(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ region, country, continent string }{
		{"me-west-1", "IL", "asia"},
		{"asia-northeast-1", "JP", "asia"},
		{"asia-northeast-2", "JP", "asia"},
		{"asia-south-1", "IN", "asia"},
		{"europe-central-1", "DE", "europe"},
		{"europe-south-1", "", "europe"},
		{"us-south-3", "US", "north-america"},
		{"australia-east-1", "AU", "oceania"},
	}
	for _, tt := range tests {
		g, ok := c.Geo("lambda", tt.region)
		if !ok || g.Country != tt.country || g.Continent != tt.continent {
			t.Errorf("lambda %s: %+v (known %v), want country %q, continent %q", tt.region, g, ok, tt.country, tt.continent)
		}
	}
}
