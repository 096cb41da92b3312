package model

import (
	"slices"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/language"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

//go:generate go run ../internal/gencountries

// Countries as people type them. The codes and English names are the
// Unicode CLDR's, as golang.org/x/text ships them: language.ParseRegion
// reads ISO 3166-1 alpha-2 and alpha-3 codes and maps the reserved ones
// (UK) to their country (GB); display.English names every country
// ("Germany", "South Korea", "Turkey"), read at `go generate` time into
// cldrCountries (the display package builds its tables in an init every
// start would pay). countryAliases adds the names in everyday use that
// neither gives.

// cldrName is the English name of a canonical two-letter code in
// cldrCountries, or "".
func cldrName(code string) string {
	i, ok := slices.BinarySearchFunc(cldrCountries[:], code, func(c struct{ code, name, zh string }, t string) int {
		return strings.Compare(c.code, t)
	})
	if !ok {
		return ""
	}
	return cldrCountries[i].name
}

// isoCountry returns the ISO 3166-1 country r stands for, and whether it
// is one: a country or territory with a UN M49 number and an English name.
// CLDR's own codes (EZ Eurozone, UN, AC Ascension Island), the private-use
// ones (XK) and the withdrawn codes with no successor (SU, YU) are not.
func isoCountry(r language.Region) (string, bool) {
	code := r.Canonicalize().String()
	if cldrName(code) == "" {
		return "", false
	}
	return code, true
}

// codeCountry reads s as an ISO 3166-1 code: two letters (any case; the
// reserved UK is GB), or three with alpha3.
func codeCountry(s string, alpha3 bool) (string, bool) {
	if n := len(s); n != 2 && (n != 3 || !alpha3) {
		return "", false
	}
	for _, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return "", false
		}
	}
	r, err := language.ParseRegion(s)
	if err != nil {
		return "", false
	}
	return isoCountry(r)
}

// RegionCountry returns the country a --regions word names as an ISO
// 3166-1 alpha-2 code in any case ("de", "US"; "uk" is GB), so that
// --regions DE means the regions in Germany as well as a region named DE
// (RunPod's, which is in Germany). Continent words are read first
// (ContinentWords): "eu", "na" and "sa" are continents there, not the EU,
// Namibia or Saudi Arabia (--country NA and --country SA name those).
func RegionCountry(w string) (string, bool) {
	w = strings.TrimSpace(w)
	if ContinentWords(w) != nil {
		return "", false
	}
	return codeCountry(w, false)
}

// countryAliases are English names in everyday use for a country that
// CLDR's English display names do not spell so (display.English has
// "United Kingdom", "United States", "South Korea", "Czechia", "Turkey",
// "Netherlands", "United Arab Emirates", "Hong Kong SAR China"): CLDR's
// own alternative forms (common/main/en.xml, alt="short" and
// alt="variant": UK, Czech Republic, Türkiye, Hong Kong, Macao, Ivory
// Coast, Cape Verde), the ISO 3166-1 short names (Korea, Republic of;
// Russian Federation; Viet Nam), the names that changed after x/text's
// CLDR (North Macedonia 2019, Eswatini 2018), and the names a user types
// for the whole country (England and Great Britain for the United
// Kingdom, Holland for the Netherlands, Korea for South Korea, UAE,
// America). Keys are as countryKey folds them.
var countryAliases = map[string]string{
	"america": "US", "united states of america": "US",
	"england": "GB", "scotland": "GB", "wales": "GB", "northern ireland": "GB", "great britain": "GB",
	"britain": "GB", "united kingdom of great britain and northern ireland": "GB",
	"holland": "NL", "netherlands kingdom of the": "NL",
	"korea": "KR", "republic of korea": "KR", "korea republic of": "KR",
	"uae": "AE", "emirates": "AE",
	"czech republic": "CZ", "turkiye": "TR",
	"hong kong": "HK", "macao": "MO", "macau": "MO",
	"russian federation": "RU", "viet nam": "VN",
	"ivory coast": "CI", "cape verde": "CV", "cabo verde": "CV",
	"north macedonia": "MK", "eswatini": "SZ", "burma": "MM", "palestine": "PS",
}

// foldMarks takes the accents off letters: "Türkiye" is "Turkiye".
var foldMarks = transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)

// countryKey folds a country name for look-up: lower case, no accents,
// "&" as "and", punctuation as spaces (dots and apostrophes dropped:
// "U.K.", "Côte d’Ivoire"), no leading "the".
func countryKey(s string) string {
	if t, _, err := transform.String(foldMarks, s); err == nil {
		s = t
	}
	s = strings.ToLower(strings.ReplaceAll(s, "&", " and "))
	var b strings.Builder
	for _, c := range s {
		switch {
		case c == '.' || c == '\'' || c == '’':
		case unicode.IsLetter(c) || unicode.IsDigit(c):
			b.WriteRune(c)
		default:
			b.WriteByte(' ')
		}
	}
	k := strings.Join(strings.Fields(b.String()), " ")
	return strings.TrimPrefix(k, "the ")
}

// countryNameIndex maps countryKey of every name a country goes by (CLDR's
// English name, with and without a bracketed part — "Myanmar (Burma)" —,
// the table's, the aliases) to its code; built on first use.
var countryNameIndex = sync.OnceValue(func() map[string]string {
	idx := map[string]string{}
	for _, c := range cldrCountries {
		idx[countryKey(c.name)] = c.code
		if before, _, ok := strings.Cut(c.name, "("); ok {
			idx[countryKey(before)] = c.code
		}
	}
	// CLDR's Simplified Chinese names (德国, 日本, 中国), after the English
	// ones so that no English name is lost to one (none is Han anyway).
	for _, c := range cldrCountries {
		if k := countryKey(c.zh); k != "" {
			if _, taken := idx[k]; !taken {
				idx[k] = c.code
			}
		}
	}
	for code, c := range countries {
		idx[countryKey(c.name)] = code
	}
	for k, code := range countryAliases {
		idx[k] = code
	}
	return idx
})

// countryCode is CountryCode's look-up: a two- or three-letter ISO 3166-1
// code, else a name.
func countryCode(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if code, ok := codeCountry(strings.ReplaceAll(s, ".", ""), true); ok { // "U.S.A."
		return code, true
	}
	code, ok := countryNameIndex()[countryKey(s)]
	return code, ok
}

// countryDisplayName is the English name of an ISO code (CLDR's), or "".
func countryDisplayName(code string) string {
	r, err := language.ParseRegion(code)
	if err != nil {
		return ""
	}
	return cldrName(r.Canonicalize().String())
}

// CountryNames lists every name CountryCode reads, as "Name (CODE)" under
// its folded key, for did-you-mean: the key is what a typo is measured
// against, the value what is suggested.
func CountryNames() map[string]string {
	out := map[string]string{}
	for k, code := range countryNameIndex() {
		out[k] = CountryName(code) + " (" + code + ")"
	}
	return out
}
