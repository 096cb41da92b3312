// Package cldr reads the Unicode CLDR's country names as
// golang.org/x/text ships them, for internal/gencountries to write into
// model/country_cldr.go and for the test that holds that file to the
// library. It is never linked into gpuplan: importing
// golang.org/x/text/language/display builds its name tables in a package
// init (0.63 ms and 3,024 allocations at every start, by
// GODEBUG=inittrace=1).
package cldr

import (
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

// Countries returns [code, English name, Simplified Chinese name (zh-Hans:
// 中国, 德国)], sorted by code, for every
// canonical two-letter region that is a country or territory: a UN M49
// number and an English name, not CLDR's own groupings (EZ, UN), not
// private use (XK), not withdrawn without a successor (SU, YU).
func Countries() [][3]string {
	var out [][3]string
	zh := display.Regions(language.SimplifiedChinese)
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
			out = append(out, [3]string{r.String(), name, zh.Name(r)})
		}
	}
	return out
}
