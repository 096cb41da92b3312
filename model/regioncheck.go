package model

import (
	"slices"
	"strings"
)

// The checks of a region filter's words, shared by offers, recommend, a
// configuration's search.regions and the configurator's market filter, so
// the same mistake reads the same everywhere and names the likely fix.

// regionsHelp ends every unknown-region message: what --regions takes.
const regionsHelp = "regions are names such as us-east-1, prefixes ending in - or * such as europe-, continents such as europe, or country codes such as DE; list them with gpuplan offers --all-regions"

// CheckRegionWords checks the words of a region filter (--regions,
// search.regions) against c: each must be a continent (ContinentWords),
// a country code (RegionCountry) or the name or prefix of a region of c.
// The first that is none is a one-line message, source (the flag or key)
// first, that says what it looks like: a country ("germany": write
// --country DE), a near-miss continent ("europ": the continent europe) or
// a near-miss region name. The zero Message when every word is good.
// Blank words are ignored.
func CheckRegionWords(c *Catalog, source string, words []string) Message {
	for _, w := range words {
		if strings.TrimSpace(w) == "" || ContinentWords(w) != nil {
			continue
		}
		if _, ok := RegionCountry(w); ok {
			continue // the regions in that country, whatever each provider calls them
		}
		if regionNamed(c, w) {
			continue
		}
		return unknownRegion(c, source, w)
	}
	return Message{}
}

// regionNamed reports whether some price of c is in a region w names or
// prefixes (RegionMatches); it stops at the first.
func regionNamed(c *Catalog, w string) bool {
	want := []string{w}
	for i := range c.Instances {
		for j := range c.Instances[i].Prices {
			if RegionMatches(c.Instances[i].Prices[j].Region, want) {
				return true
			}
		}
	}
	return false
}

// unknownRegion says that w names no region, and what it may be.
func unknownRegion(c *Catalog, source, w string) Message {
	if code, ok := CountryCode(w); ok {
		if cont := continentOf(code); cont != "" {
			return Msg("%s: unknown region %q, which is a country: write --country %s (or --regions %s, its continent)", source, w, code, cont)
		}
		return Msg("%s: unknown region %q, which is a country: write --country %s", source, w, code)
	}
	var conts []string
	if !strings.HasSuffix(w, "-") && !strings.HasSuffix(w, "*") { // a prefix asks for names
		conts = Closest(w, Continents, 2)
	}
	if len(conts) > 0 { // "europ": the continent, not Europe-EE beside it
		return Msg("%s: unknown region %q; did you mean the continent %s? (%s)", source, w, OrMsg(conts), Msg(regionsHelp))
	}
	all := map[string]bool{}
	for i := range c.Instances {
		for j := range c.Instances[i].Prices {
			reg := c.Instances[i].Prices[j].Region
			all[reg] = true
			if pre, _, ok := strings.Cut(reg, "-"); ok {
				all[pre+"-"] = true // suggest prefixes too: "europe-"
			}
		}
	}
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	slices.Sort(names)
	var regs []string
	for _, n := range Closest(w, names, 3) {
		regs = append(regs, quoteRegion(n))
	}
	help := Msg(regionsHelp)
	if len(regs) > 0 {
		return Msg("%s: unknown region %q; did you mean %s? (%s)", source, w, OrMsg(regs), help)
	}
	return Msg("%s: unknown region %q (%s)", source, w, help)
}

// quoteRegion quotes a region name that holds a space or comma (Vast's
// "Bavaria, DE, EU"), so a list of them reads unambiguously.
func quoteRegion(n string) string {
	if strings.ContainsAny(n, " ,") {
		return `"` + n + `"`
	}
	return n
}

// countriesHelp ends every unknown-country message: what --country takes.
const countriesHelp = "want an ISO 3166-1 code such as DE or an English name such as Germany"

// CheckCountryWords checks the words of a country filter (--country): each
// must name a country (CountryCode). The first that does not is a one-line
// message, source first, with the nearest names, or the --regions to write
// for a continent ("--country europe"). The zero Message when every word
// is good; blank words are ignored.
func CheckCountryWords(source string, words []string) Message {
	for _, w := range words {
		if strings.TrimSpace(w) == "" {
			continue
		}
		if _, ok := CountryCode(w); ok {
			continue
		}
		if cs := ContinentWords(w); cs != nil {
			return Msg("%s: unknown country %q, which is a continent: write --regions %s", source, w, strings.ToLower(strings.TrimSpace(w)))
		}
		var close []string
		if k := countryKey(w); len(k) > 3 { // two or three letters are a code: no name is near
			byKey := CountryNames()
			keys := make([]string, 0, len(byKey))
			for k := range byKey {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range Closest(k, keys, 6) {
				if n := byKey[k]; !slices.Contains(close, n) && len(close) < 3 {
					close = append(close, n)
				}
			}
		}
		if len(close) > 0 {
			return Msg("%s: unknown country %q; did you mean %s? (%s)", source, w, OrMsg(close), Msg(countriesHelp))
		}
		return Msg("%s: unknown country %q (%s)", source, w, Msg(countriesHelp))
	}
	return Message{}
}

// CheckListNamesSome checks that a list filter given explicitly (--country,
// --regions, --providers, or the configurator's filter line) names
// something: an empty value or commas only (--country "", --regions ,,)
// is a mistake, refused as kubectl and gh refuse an empty flag value,
// not the filter left out. flag is the filter's flag ("--country"); the
// zero Message when some word is not blank.
func CheckListNamesSome(flag string, words []string) Message {
	for _, w := range words {
		if strings.TrimSpace(w) != "" {
			return Message{}
		}
	}
	v := strings.Join(words, ",")
	switch flag {
	case "--country":
		return Msg("--country %q names no country; give ISO codes or English names such as de,fr, or leave the flag out for any country", v)
	case "--regions":
		return Msg("--regions %q names no region; give regions, prefixes or continents such as us-east-1,europe, or leave the flag out for every region", v)
	case "--providers":
		return Msg("--providers %q names no provider; give provider keys such as aws,gcp, or leave the flag out for every provider", v)
	}
	return Msg("%s %q names nothing; give a value, or leave the flag out", flag, v)
}
