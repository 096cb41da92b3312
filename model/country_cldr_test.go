package model

import (
	"testing"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

// TestCountryTableIsCLDR holds the generated cldrCountries to the library
// it was generated from: every canonical two-letter country x/text knows,
// with display.English's name, and nothing else (go generate ./model
// after a golang.org/x/text upgrade).
func TestCountryTableIsCLDR(t *testing.T) {
	want := map[string]string{}
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			r, err := language.ParseRegion(string([]rune{a, b}))
			if err != nil || r.Canonicalize() != r {
				continue
			}
			name := display.English.Regions().Name(r)
			if !r.IsCountry() || r.IsPrivateUse() || r.M49() == 0 || name == "" {
				continue
			}
			want[r.String()] = name
		}
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
