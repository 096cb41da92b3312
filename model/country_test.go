package model

import (
	"strings"
	"testing"
)

// TestCountryCode: codes in any case, the reserved UK, alpha-3, CLDR's
// English names and the names in everyday use a new user typed (walk49:
// UK, USA, England, Great Britain, Korea, UAE, Holland, Czech Republic
// and turkey were refused, turkey with "did you mean KE").
func TestCountryCode(t *testing.T) {
	tests := []struct {
		in, want string // want "": no country
	}{
		{"de", "DE"}, {"DE", "DE"}, {" fr ", "FR"},
		{"UK", "GB"}, {"uk", "GB"}, {"U.K.", "GB"}, // ISO's reserved code for the United Kingdom
		{"USA", "US"}, {"U.S.A.", "US"}, {"gbr", "GB"}, {"deu", "DE"}, // alpha-3
		{"ZW", "ZW"}, {"Zimbabwe", "ZW"}, // every ISO country, not only the catalog's
		{"Germany", "DE"}, {"united states", "US"}, {"United States of America", "US"}, {"America", "US"},
		{"England", "GB"}, {"Great Britain", "GB"}, {"Britain", "GB"}, {"Scotland", "GB"}, {"United Kingdom", "GB"},
		{"Korea", "KR"}, {"South Korea", "KR"}, {"Republic of Korea", "KR"}, {"North Korea", "KP"},
		{"UAE", "AE"}, {"United Arab Emirates", "AE"},
		{"Holland", "NL"}, {"the Netherlands", "NL"}, {"Netherlands", "NL"},
		{"Czech Republic", "CZ"}, {"Czechia", "CZ"},
		{"turkey", "TR"}, {"Türkiye", "TR"}, {"Turkiye", "TR"},
		{"Hong Kong", "HK"}, {"Côte d’Ivoire", "CI"}, {"Cote d'Ivoire", "CI"}, {"Ivory Coast", "CI"},
		{"Myanmar", "MM"}, {"Bosnia & Herzegovina", "BA"}, {"bosnia and herzegovina", "BA"},
		// Not countries: CLDR's groupings and own codes, private use, nonsense.
		{"EU", ""}, {"EZ", ""}, {"UN", ""}, {"XK", ""}, {"AC", ""}, {"ZZ", ""}, {"xx", ""}, {"", ""},
		{"europe", ""}, {"germanie", ""}, {"eng", ""},
	}
	for _, tt := range tests {
		got, ok := CountryCode(tt.in)
		if ok != (tt.want != "") || ok && got != tt.want {
			t.Errorf("CountryCode(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

// TestRegionCountry: only two-letter codes are countries among regions,
// and continent words stay continents.
func TestRegionCountry(t *testing.T) {
	for in, want := range map[string]string{
		"US": "US", "us": "US", "de": "DE", "UK": "GB", "NA": "", "sa": "", "eu": "", "ZZ": "",
		"usa": "", "Germany": "", "us-": "", "us-east-1": "",
	} {
		got, ok := RegionCountry(in)
		if ok != (want != "") || got != want {
			t.Errorf("RegionCountry(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func checkCatalog() *Catalog {
	c := geoCatalog()
	for _, r := range []string{"us-east-1", "eu-central-1", "europe-west3", "Europe-EE", "Europe-NO", "US", "DE", "Bavaria, DE, EU"} {
		c.Instances = append(c.Instances, Instance{Provider: "aws", Type: "t", Prices: []RegionPrice{{Region: r, OnDemandUSD: 1}}})
	}
	return c
}

// TestCheckRegionWords: one wording for offers and recommend; a country
// code is accepted, a country name or a near-miss continent is named as
// such (walk49: "europ" suggested Europe-, Europe-EE or Europe-NO).
func TestCheckRegionWords(t *testing.T) {
	c := checkCatalog()
	tests := []struct {
		words []string
		want  string // "": accepted
	}{
		{[]string{"us-east-1", "europe-", "eu-", "europe", "eu*", "apac", "", " "}, ""},
		{[]string{"us", "US", "de", "uk", "zw"}, ""}, // country codes: their regions
		{[]string{"europ"}, `--regions: unknown region "europ"; did you mean the continent europe? (regions are names such as us-east-1`},
		{[]string{"asai"}, `did you mean the continent asia?`},
		{[]string{"north amrica"}, `did you mean the continent north-america`},
		{[]string{"germany"}, `--regions: unknown region "germany", which is a country: write --country DE (or --regions europe, its continent)`},
		{[]string{"Zimbabwe"}, `--regions: unknown region "Zimbabwe", which is a country: write --country ZW`},
		{[]string{"USA"}, `which is a country: write --country US (or --regions north-america, its continent)`},
		{[]string{"eurpoe-"}, `unknown region "eurpoe-"; did you mean Europe-, eu- or Europe-EE?`}, // a prefix asks for names, not continents
		{[]string{"us-east-l"}, `did you mean us-east-1`},
		{[]string{"Bavaria DE EU"}, `did you mean "Bavaria, DE, EU"`},
		{[]string{"mars-1"}, `--regions: unknown region "mars-1" (regions are names such as us-east-1, prefixes ending in - or * such as europe-, continents such as europe, or country codes such as DE; list them with gpuplan offers --all-regions)`},
	}
	for _, tt := range tests {
		got := CheckRegionWords(c, "--regions", tt.words).String()
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) || strings.Contains(got, "\n") {
			t.Errorf("CheckRegionWords(%q) = %q, want one line with %q", tt.words, got, tt.want)
		}
	}
}

// TestCheckCountryWords: names in everyday use are countries; a
// continent points to --regions; a typo gets the nearest names, never a
// code two letters away (walk49: uk → DK, HK or SK; turkey → KE).
func TestCheckCountryWords(t *testing.T) {
	tests := []struct {
		words []string
		want  string
	}{
		{[]string{"de", "UK", "USA", "England", "Great Britain", "Korea", "UAE", "Holland", "Czech Republic", "turkey", ""}, ""},
		{[]string{"europe"}, `--country: unknown country "europe", which is a continent: write --regions europe`},
		{[]string{"EU"}, `which is a continent: write --regions eu`},
		{[]string{"germanie"}, `--country: unknown country "germanie"; did you mean Germany (DE)`},
		{[]string{"untied kingdom"}, `did you mean United Kingdom (GB)?`},
		{[]string{"xx"}, `--country: unknown country "xx" (want an ISO 3166-1 code such as DE or an English name such as Germany)`},
	}
	for _, tt := range tests {
		got := CheckCountryWords("--country", tt.words).String()
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) || strings.Contains(got, "\n") {
			t.Errorf("CheckCountryWords(%q) = %q, want one line with %q", tt.words, got, tt.want)
		}
	}
}
