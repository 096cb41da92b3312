package model

import (
	"testing"

	"github.com/gpuplan/gpuplan/internal/cldr"
)

// TestCountryTableIsCLDR holds the generated cldrCountries to the library
// it was generated from: every canonical two-letter country x/text knows,
// with display.English's name, and nothing else (go generate ./model
// after a golang.org/x/text upgrade).
func TestCountryTableIsCLDR(t *testing.T) {
	want, wantZh := map[string]string{}, map[string]string{}
	for _, c := range cldr.Countries() {
		want[c[0]], wantZh[c[0]] = c[1], c[2]
	}
	if len(want) != len(cldrCountries) {
		t.Errorf("cldrCountries has %d countries, x/text %d: run go generate ./model", len(cldrCountries), len(want))
	}
	prev := ""
	for _, c := range cldrCountries {
		if c.code <= prev {
			t.Errorf("cldrCountries not sorted at %s after %s", c.code, prev)
		}
		prev = c.code
		if wantZh[c.code] != c.zh {
			t.Errorf("%s: table's Chinese name %q, x/text %q: run go generate ./model", c.code, c.zh, wantZh[c.code])
		}
		if want[c.code] != c.name {
			t.Errorf("%s: table %q, x/text %q: run go generate ./model", c.code, c.name, want[c.code])
		}
	}
	for _, tc := range []struct{ in, want string }{{"de", "Germany"}, {"GB", "United Kingdom"}, {"UK", "United Kingdom"}, {"EZ", ""}, {"XK", ""}, {"SU", ""}} {
		if got := countryDisplayName(tc.in); got != tc.want {
			t.Errorf("countryDisplayName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
