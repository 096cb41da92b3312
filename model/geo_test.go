package model

import (
	"slices"
	"testing"
)

func geoCatalog() *Catalog {
	c := &Catalog{Regions: []ProviderRegions{
		{Provider: "aws", Regions: []RegionGeo{{Region: "eu-central-1", Country: "DE", City: "Frankfurt"}, {Region: "us-east-1", Country: "US"}}},
		{Provider: "lambda", Regions: []RegionGeo{{Region: "me-west-1", Continent: "asia"}}},
		{Provider: "runpod", Rule: GeoISOCountry},
		{Provider: "vast", Rule: GeoPlaceCountryContinent},
		{Provider: "shadeform", Rule: GeoCityCountryN},
	}}
	c.Index()
	return c
}

func TestGeo(t *testing.T) {
	c := geoCatalog()
	tests := []struct {
		provider, region string
		want             RegionGeo
		ok               bool
	}{
		// The table, continent from the country (UN M49).
		{"aws", "eu-central-1", RegionGeo{Region: "eu-central-1", Country: "DE", City: "Frankfurt", Continent: "europe"}, true},
		{"aws", "us-east-1", RegionGeo{Region: "us-east-1", Country: "US", Continent: "north-america"}, true},
		// A continent without a country.
		{"lambda", "me-west-1", RegionGeo{Region: "me-west-1", Continent: "asia"}, true},
		// Same name, other provider: nothing known.
		{"gcp", "eu-central-1", RegionGeo{Region: "eu-central-1"}, false},
		{"aws", "eu-central-9", RegionGeo{Region: "eu-central-9"}, false},
		// Rules.
		{"runpod", "IS", RegionGeo{Region: "IS", Country: "IS", Continent: "europe"}, true},
		{"runpod", "XX", RegionGeo{Region: "XX"}, false},
		{"vast", "Bavaria, DE, EU", RegionGeo{Region: "Bavaria, DE, EU", Country: "DE", Continent: "europe", City: "Bavaria"}, true},
		{"vast", ", US, NA", RegionGeo{Region: ", US, NA", Country: "US", Continent: "north-america"}, true},
		{"vast", "Taiwan, TW, AS", RegionGeo{Region: "Taiwan, TW, AS", Country: "TW", Continent: "asia", City: "Taiwan"}, true},
		{"shadeform", "warsaw-poland-1", RegionGeo{Region: "warsaw-poland-1", Country: "PL", Continent: "europe"}, true},
		{"shadeform", "atlantis-sea-1", RegionGeo{Region: "atlantis-sea-1"}, false},
	}
	for _, tt := range tests {
		got, ok := c.Geo(tt.provider, tt.region)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Geo(%q, %q) = %+v, %v; want %+v, %v", tt.provider, tt.region, got, ok, tt.want, tt.ok)
		}
	}
}

func TestContinentWordsAndCountries(t *testing.T) {
	for w, want := range map[string][]string{
		"europe": {"europe"}, "EU": {"europe"}, "North America": {"north-america"}, "na": {"north-america"},
		"apac": {"asia", "oceania"}, "americas": {"north-america", "south-america"}, "europe-": nil, "eu-west-1": nil, "de": nil,
	} {
		if got := ContinentWords(w); !slices.Equal(got, want) {
			t.Errorf("ContinentWords(%q) = %v, want %v", w, got, want)
		}
	}
	for in, want := range map[string]string{"de": "DE", "DE": "DE", "Germany": "DE", "united states": "US", "uk": "GB", "xx": "", "": ""} {
		got, ok := CountryCode(in)
		if got != want && !(want == "" && !ok) || ok != (want != "") {
			t.Errorf("CountryCode(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// TestRegionFilter: names and prefixes work as before; continents and
// countries match through the geography; --regions and --country both
// apply when both are given.
func TestRegionFilter(t *testing.T) {
	c := geoCatalog()
	tests := []struct {
		regions, countries []string
		provider, region   string
		want               bool
	}{
		{nil, nil, "aws", "anything", true},
		{[]string{"eu-central-1"}, nil, "aws", "eu-central-1", true},
		{[]string{"eu-"}, nil, "aws", "eu-central-1", true},
		{[]string{"eu-"}, nil, "aws", "us-east-1", false},
		{[]string{"europe-"}, nil, "aws", "eu-central-1", false}, // the prefix is a prefix, as before
		{[]string{"europe"}, nil, "aws", "eu-central-1", true},
		{[]string{"eu"}, nil, "aws", "eu-central-1", true},
		{[]string{"europe"}, nil, "aws", "us-east-1", false},
		{[]string{"europe"}, nil, "runpod", "IS", true},
		{[]string{"europe"}, nil, "vast", "Bavaria, DE, EU", true},
		{[]string{"asia"}, nil, "lambda", "me-west-1", true},
		{[]string{"europe"}, nil, "gcp", "europe-west3", false}, // nothing known of it
		{[]string{"us-east-1", "europe"}, nil, "aws", "us-east-1", true},
		{nil, []string{"de"}, "aws", "eu-central-1", true},
		{nil, []string{"Germany"}, "vast", "Bavaria, DE, EU", true},
		{nil, []string{"de"}, "aws", "us-east-1", false},
		{nil, []string{"de"}, "lambda", "me-west-1", false}, // no country known
		{[]string{"north-america"}, []string{"de"}, "aws", "eu-central-1", false},
		{[]string{"europe"}, []string{"de"}, "aws", "eu-central-1", true},
		{[]string{"eu-"}, []string{"us"}, "aws", "eu-central-1", false},
		// A country code among the regions is that country's regions and a
		// region so named, in any case (walk49: --regions US matched RunPod's
		// "US" alone, --regions de nothing).
		{[]string{"US"}, nil, "aws", "us-east-1", true},
		{[]string{"us"}, nil, "aws", "us-east-1", true},
		{[]string{"US"}, nil, "runpod", "US", true},
		{[]string{"us"}, nil, "runpod", "US", true},
		{[]string{"de"}, nil, "aws", "eu-central-1", true},
		{[]string{"DE"}, nil, "vast", "Bavaria, DE, EU", true},
		{[]string{"DE"}, nil, "aws", "us-east-1", false},
		{[]string{"uk"}, nil, "shadeform", "london-uk-1", true}, // UK is GB
		{[]string{"de", "us-east-1"}, nil, "aws", "us-east-1", true},
		{[]string{"de"}, []string{"us"}, "aws", "eu-central-1", false},
		{[]string{"sa"}, nil, "vast", "Riyadh, SA, AS", false}, // sa is South America there; --country SA is Saudi Arabia
		{[]string{"de"}, nil, "lambda", "me-west-1", false},    // no country known
		// A placeholder naming no place (RegionUnstated: Daytona's
		// "earth", Hyperbolic's "default") is out of every filter of
		// places, a prefix of names too (walk51: --regions e* and d*
		// listed them as if the prefix named a place); its own name is
		// the row's key, which an exported file pins and selects it.
		{[]string{"europe"}, nil, "daytona", "earth", false},
		{[]string{"us"}, nil, "daytona", "earth", false},
		{nil, []string{"us"}, "daytona", "earth", false},
		{[]string{"e*"}, nil, "daytona", "earth", false},
		{[]string{"ea*"}, nil, "daytona", "earth", false},
		{[]string{"d*"}, nil, "hyperbolic", "default", false},
		{[]string{"earth"}, nil, "daytona", "earth", true},
		{[]string{"default"}, nil, "hyperbolic", "default", true},
		{[]string{"earth"}, []string{"us"}, "daytona", "earth", false},
	}
	for _, tt := range tests {
		f := NewRegionFilter(c, tt.regions, tt.countries)
		if got := f.Match(tt.provider, tt.region); got != tt.want {
			t.Errorf("regions %v countries %v: match(%s, %s) = %v, want %v", tt.regions, tt.countries, tt.provider, tt.region, got, tt.want)
		}
	}
}

func TestRegionCountrySuffix(t *testing.T) {
	for _, tt := range []struct{ region, country, want string }{
		{"eu-north1", "FI", " (FI)"}, {"FI", "FI", ""}, {"Bavaria, DE, EU", "DE", ""}, {"earth", "", ""},
	} {
		if got := RegionCountrySuffix(tt.region, tt.country); got != tt.want {
			t.Errorf("RegionCountrySuffix(%q, %q) = %q, want %q", tt.region, tt.country, got, tt.want)
		}
	}
}
