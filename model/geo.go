package model

import (
	"slices"
	"strings"
	"sync"
)

// Region geography: where each provider's regions are, so that a search
// can say "Europe" or "Germany" across providers that name their regions
// each their own way (AWS eu-central-1, GCP europe-west3, Nebius eu-north1,
// Fluidstack FINLAND, RunPod DE).

// RegionGeo is where one region of one provider is.
type RegionGeo struct {
	Region    string // the provider's region name, as in RegionPrice.Region
	Continent string // a Continents key; empty when not known
	Country   string // ISO 3166-1 alpha-2, upper case; empty when not known
	City      string // where the provider names one; often empty
}

// Geo rules for providers whose region names carry their geography, so
// regions that appear after the table was written (a marketplace's new
// hosts, a catalog update) are placed too.
const (
	// GeoISOCountry: the region is an ISO 3166-1 alpha-2 code (RunPod,
	// Prime Intellect and Lium write "DE", "US").
	GeoISOCountry = "iso-country"
	// GeoPlaceCountryContinent: "place, CC, continent code" (Vast.ai:
	// "Bavaria, DE, EU", ", US, NA").
	GeoPlaceCountryContinent = "place-country-continent"
	// GeoCityCountryN: "city-country-n" (Shadeform: "paris-france-1",
	// "kansascity-usa-1"); the country is a name (countryNames).
	GeoCityCountryN = "city-country-n"
)

// ProviderRegions is one provider's region geography with its source.
type ProviderRegions struct {
	Provider string
	Rule     string // "" or one of the Geo* rules, tried after Regions
	Regions  []RegionGeo
	Source   string
	AsOf     string
}

// Continents are the continent keys a region filter takes, with the UN
// M49 standard's continental regions (Americas split into North America —
// with Central America and the Caribbean — and South America; the Middle
// East is Asia's Western Asia).
var Continents = []string{"africa", "asia", "europe", "north-america", "oceania", "south-america"}

// continentAliases map what people type to continent keys: the keys
// themselves, common abbreviations and groups.
var continentAliases = map[string][]string{
	"africa": {"africa"}, "asia": {"asia"}, "europe": {"europe"}, "eu": {"europe"},
	"north-america": {"north-america"}, "northamerica": {"north-america"}, "na": {"north-america"},
	"south-america": {"south-america"}, "southamerica": {"south-america"}, "sa": {"south-america"},
	"oceania":  {"oceania"},
	"americas": {"north-america", "south-america"}, "apac": {"asia", "oceania"},
	// The continents' names in Simplified Chinese, CLDR's (zh-Hans
	// territories 002 非洲, 142 亚洲, 150 欧洲, 003 北美洲, 005 南美洲,
	// 009 大洋洲, 019 美洲, golang.org/x/text/language/display), with the
	// short forms in everyday use (北美, 南美) and 亚太 for apac.
	"非洲": {"africa"}, "亚洲": {"asia"}, "欧洲": {"europe"}, "北美洲": {"north-america"}, "北美": {"north-america"},
	"南美洲": {"south-america"}, "南美": {"south-america"}, "大洋洲": {"oceania"},
	"美洲": {"north-america", "south-america"}, "亚太": {"asia", "oceania"},
}

// ContinentWords returns the continents a region-filter word names
// ("europe", "eu", "north-america", "apac"), or nil when it names none.
// Case and spaces are folded: "North America" is north-america.
func ContinentWords(w string) []string {
	k := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(w)), " ", "-")
	return continentAliases[k]
}

// continentOfCode maps the two-letter continent codes Vast.ai writes to
// continent keys.
var continentOfCode = map[string]string{
	"AF": "africa", "AS": "asia", "EU": "europe", "NA": "north-america", "OC": "oceania", "SA": "south-america",
}

// countries maps ISO 3166-1 alpha-2 codes to the English short name and the
// UN M49 continent (unstats.un.org/unsd/methodology/m49: Europe, Asia with
// Western Asia, Africa, Oceania, Americas split at the Panama–Colombia
// border). It covers every country a catalog region is in and their
// neighbours; a code not here is still accepted where a provider writes
// it, with no continent.
var countries = map[string]struct{ name, continent string }{
	"AE": {"United Arab Emirates", "asia"}, "AR": {"Argentina", "south-america"}, "AT": {"Austria", "europe"},
	"AU": {"Australia", "oceania"}, "BE": {"Belgium", "europe"}, "BG": {"Bulgaria", "europe"},
	"BH": {"Bahrain", "asia"}, "BR": {"Brazil", "south-america"}, "CA": {"Canada", "north-america"},
	"CH": {"Switzerland", "europe"}, "CL": {"Chile", "south-america"}, "CN": {"China", "asia"},
	"CO": {"Colombia", "south-america"}, "CZ": {"Czechia", "europe"}, "DE": {"Germany", "europe"},
	"DK": {"Denmark", "europe"}, "EE": {"Estonia", "europe"}, "EG": {"Egypt", "africa"},
	"ES": {"Spain", "europe"}, "FI": {"Finland", "europe"}, "FR": {"France", "europe"},
	"GB": {"United Kingdom", "europe"}, "GR": {"Greece", "europe"}, "HK": {"Hong Kong", "asia"},
	"HR": {"Croatia", "europe"}, "HU": {"Hungary", "europe"}, "ID": {"Indonesia", "asia"},
	"IE": {"Ireland", "europe"}, "IL": {"Israel", "asia"}, "IN": {"India", "asia"},
	"IS": {"Iceland", "europe"}, "IT": {"Italy", "europe"}, "JP": {"Japan", "asia"},
	"KE": {"Kenya", "africa"}, "KR": {"South Korea", "asia"}, "LT": {"Lithuania", "europe"},
	"LU": {"Luxembourg", "europe"}, "LV": {"Latvia", "europe"}, "MA": {"Morocco", "africa"},
	"MX": {"Mexico", "north-america"}, "MY": {"Malaysia", "asia"}, "NG": {"Nigeria", "africa"},
	"NL": {"Netherlands", "europe"}, "NO": {"Norway", "europe"}, "NZ": {"New Zealand", "oceania"},
	"PH": {"Philippines", "asia"}, "PL": {"Poland", "europe"}, "PT": {"Portugal", "europe"},
	"QA": {"Qatar", "asia"}, "RO": {"Romania", "europe"}, "RS": {"Serbia", "europe"},
	"RU": {"Russia", "europe"}, "SA": {"Saudi Arabia", "asia"}, "SE": {"Sweden", "europe"},
	"SG": {"Singapore", "asia"}, "SI": {"Slovenia", "europe"}, "SK": {"Slovakia", "europe"},
	"TH": {"Thailand", "asia"}, "TR": {"Türkiye", "asia"}, "TW": {"Taiwan", "asia"},
	"UA": {"Ukraine", "europe"}, "US": {"United States", "north-america"}, "VN": {"Vietnam", "asia"},
	"ZA": {"South Africa", "africa"},
}

// countryNames are the country names Shadeform writes in its region
// names ("paris-france-1"), by ISO code.
var countryNames = map[string]string{
	"usa": "US", "canada": "CA", "france": "FR", "poland": "PL", "japan": "JP", "india": "IN",
	"germany": "DE", "finland": "FI", "norway": "NO", "sweden": "SE", "netherlands": "NL",
	"uk": "GB", "iceland": "IS", "australia": "AU", "singapore": "SG", "spain": "ES", "italy": "IT",
}

// CountryCode returns the ISO 3166-1 alpha-2 code a --country value
// names: a code in any case ("de", the reserved "UK" for GB, alpha-3
// "usa"), an English name ("Germany", "united states", "Türkiye") or a
// name in everyday use ("England", "Holland", "Korea", "UAE"): country.go.
// ok is false when it names no country.
func CountryCode(s string) (string, bool) { return countryCode(s) }

// CountryName returns the English short name of an ISO code, or the code.
func CountryName(code string) string {
	if c, ok := countries[code]; ok {
		return c.name
	}
	if n := countryDisplayName(code); n != "" {
		return n
	}
	return code
}

// CountryCodes lists the known ISO codes, sorted (for did-you-mean).
func CountryCodes() []string {
	out := make([]string, 0, len(countries))
	for k := range countries {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// continentOf is the continent of an ISO code, "" when unknown.
func continentOf(code string) string { return countries[code].continent }

// geoIndex finds a provider's region geography: the table first, then the
// provider's rule. It is built on first use (index), not by Index:
// recommend without a region filter never asks.
type geoIndex struct {
	src   *ProviderRegions // &Catalog.Regions[0] when made, to tell a stale index
	once  sync.Once
	built *geoTables
}

type geoTables struct {
	table map[[2]string]RegionGeo
	rules map[string]string
}

func buildGeo(regions []ProviderRegions) *geoTables {
	// The table at its size: grown from empty, its ~250 regions were
	// rehashed four times, most of a ranking's first Geo (~0.1 ms).
	n := 0
	for i := range regions {
		n += len(regions[i].Regions)
	}
	g := &geoTables{table: make(map[[2]string]RegionGeo, n), rules: map[string]string{}}
	for i := range regions {
		p := &regions[i]
		if p.Rule != "" {
			g.rules[p.Provider] = p.Rule
		}
		for _, r := range p.Regions {
			if r.Continent == "" {
				r.Continent = continentOf(r.Country)
			}
			g.table[[2]string{p.Provider, r.Region}] = r
		}
	}
	return g
}

// indexGeo makes a new geography index, to be built on first use, unless
// c has one of the same Regions (a copied catalog shares it: Load copies
// the compiled catalog on every call).
func (c *Catalog) indexGeo() {
	var src *ProviderRegions
	if len(c.Regions) > 0 {
		src = &c.Regions[0]
	}
	if c.geo != nil && c.geo.src == src {
		return
	}
	c.geo = &geoIndex{src: src}
}

// geoTables returns the index's tables, building them once: callers on
// several goroutines (the configurator's) wait for one build.
func (c *Catalog) geoTables() *geoTables {
	if c.geo == nil {
		c.indexGeo()
	}
	g, regions := c.geo, c.Regions
	g.once.Do(func() { g.built = buildGeo(regions) })
	return g.built
}

// Geo returns where provider's region is, and whether anything is known
// of it: the region table of catalog/regions.toml, else the provider's
// naming rule (GeoISOCountry, GeoPlaceCountryContinent, GeoCityCountryN).
func (c *Catalog) Geo(provider, region string) (RegionGeo, bool) {
	geo := c.geoTables()
	if g, ok := geo.table[[2]string{provider, region}]; ok {
		return g, true
	}
	switch geo.rules[provider] {
	case GeoISOCountry:
		if code := strings.ToUpper(strings.TrimSpace(region)); len(code) == 2 && continentOf(code) != "" {
			return RegionGeo{Region: region, Country: code, Continent: continentOf(code)}, true
		}
	case GeoPlaceCountryContinent:
		parts := strings.Split(region, ",")
		if len(parts) == 3 {
			code, cont := strings.TrimSpace(parts[1]), continentOfCode[strings.TrimSpace(parts[2])]
			if cont == "" {
				cont = continentOf(code)
			}
			if len(code) == 2 && cont != "" {
				return RegionGeo{Region: region, Country: code, Continent: cont, City: strings.TrimSpace(parts[0])}, true
			}
		}
	case GeoCityCountryN:
		parts := strings.Split(region, "-")
		if len(parts) == 3 {
			if code, ok := countryNames[parts[1]]; ok {
				return RegionGeo{Region: region, Country: code, Continent: continentOf(code)}, true
			}
		}
	}
	return RegionGeo{Region: region}, false
}

// unstatedRegions are region names a catalog row carries where its source
// states no place: SkyPilot's Daytona file (catalogs/v8/daytona/vms.csv
// @ 0eb5da57) gives every GPU row the region "earth" while its CPU rows
// say "us" and "eu", so "earth" is a placeholder, not a location. The name
// stays the row's key (SkyPilot launches in it); only what is shown says
// the truth, and no filter of places matches it: a continent, a country
// or country code (--regions europe, --country us) or a prefix (e*). Its
// own name does (--regions earth), as the key the row is picked by:
// [search] regions may name it, the configurator's region question offers
// it as "location not stated", export --region takes it.
// Hyperbolic's rows all carry "default" (catalogs/v8/hyperbolic/vms.csv @
// 0082b043, copied from Hyperbolic's own SkyPilot catalog endpoint by
// SkyPilot's sky/catalog/data_fetchers/fetch_hyperbolic.py), naming no
// place either (walk49: shown as "default").
var unstatedRegions = map[string]bool{"earth": true, "default": true}

// RegionUnstated reports whether region is a placeholder naming no place
// (unstatedRegions).
func RegionUnstated(region string) bool { return unstatedRegions[region] }

// RegionShown is how tables and sentences write a region name: a
// placeholder naming no place as "location not stated", and a name of
// comma-separated parts (Vast.ai's "place, CC, continent") without its
// empty parts: ", CN, AS" is "CN, AS", not a leading comma. Any other
// name is returned as it is. JSON and launch files keep the name itself.
func RegionShown(region string) string {
	if RegionUnstated(region) {
		return Msg("location not stated").String()
	}
	if !strings.Contains(region, ",") {
		return region
	}
	parts := strings.Split(region, ",")
	kept := parts[:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ", ")
}

// RegionCountrySuffix is what tables add after a region name to say its
// country: " (FI)" after eu-north1, nothing when the country is unknown
// or the name already says it (RunPod's "FI", Vast's "Bavaria, DE, EU").
func RegionCountrySuffix(region, country string) string {
	if country == "" || region == country || strings.Contains(region, ", "+country+",") {
		return ""
	}
	return " (" + country + ")"
}

// RegionFilter is Query.Regions and Query.Countries parsed once: region
// names, prefixes ("us-", "asia*"), continents ("europe", "eu"), country
// codes among the regions ("DE", "us": RegionCountry) and countries (ISO
// codes or names). A region passes when the names, continents or region
// countries match (any of them; none given: any region) and its country
// is one of the countries (none given: any country).
type RegionFilter struct {
	names      []string // exact names and prefixes
	continents []string
	inCountry  []string // --regions words that are country codes: also every region there
	countries  []string
	c          *Catalog
}

// NewRegionFilter parses regions (names, prefixes, continents, country
// codes) and countries (codes or English names) over c's geography.
func NewRegionFilter(c *Catalog, regions, countries []string) RegionFilter {
	f := RegionFilter{c: c}
	for _, w := range regions {
		if cs := ContinentWords(w); cs != nil {
			f.continents = append(f.continents, cs...)
			continue
		}
		// A country code is the regions in that country and a region so
		// named (RunPod's "US" is in the US, so the union is the country).
		f.names = append(f.names, w)
		if code, ok := RegionCountry(w); ok {
			f.inCountry = append(f.inCountry, code)
		}
	}
	for _, w := range countries {
		if code, ok := CountryCode(w); ok {
			f.countries = append(f.countries, code)
		} else {
			f.countries = append(f.countries, strings.ToUpper(strings.TrimSpace(w)))
		}
	}
	return f
}

// any reports whether the filter lets every region through.
func (f *RegionFilter) any() bool {
	return len(f.names) == 0 && len(f.continents) == 0 && len(f.countries) == 0
}

// Match applies the filter to one provider's region.
func (f *RegionFilter) Match(provider, region string) bool {
	if f.any() {
		return true
	}
	named := len(f.names) > 0 && RegionMatches(region, f.names)
	if named && len(f.countries) == 0 {
		return true
	}
	if len(f.continents) == 0 && len(f.countries) == 0 && len(f.inCountry) == 0 {
		return false
	}
	g, _ := f.c.Geo(provider, region)
	where := len(f.names) == 0 && len(f.continents) == 0 || named ||
		g.Continent != "" && slices.Contains(f.continents, g.Continent) ||
		g.Country != "" && slices.Contains(f.inCountry, g.Country)
	return where && (len(f.countries) == 0 || slices.Contains(f.countries, g.Country) && g.Country != "")
}

// ChinaNote is the line that says where China's clouds are when the
// countries (--country values) or region words (--regions: a country
// code) of a query name China and no instance of c but a marketplace
// host has a region there: the embedded catalog has none (SkyPilot's
// catalogs list no Chinese cloud), and Alibaba Cloud, Tencent Cloud and AutoDL come as example
// overlays whose prices the user supplies (docs/data.md, "China clouds
// and CNY prices"; a new user's walk: --country CN answered "0 offers"
// and nothing more). ok is false otherwise.
func (c *Catalog) ChinaNote(countries, regions []string) (Message, bool) {
	asked := slices.ContainsFunc(countries, func(s string) bool { code, ok := CountryCode(s); return ok && code == "CN" }) ||
		slices.ContainsFunc(regions, func(s string) bool { code, ok := RegionCountry(s); return ok && code == "CN" })
	if !asked {
		return Message{}, false
	}
	var unplaced *Instance // a CNY-priced row whose region has no country: an overlay without [[region]]
	unplacedRegion := ""
	for i := range c.Instances {
		in := &c.Instances[i]
		if slices.Contains(MarketplaceProviders, in.Provider) { // a host's location, not a cloud's region
			continue
		}
		for _, p := range in.Prices {
			g, _ := c.Geo(in.Provider, p.Region)
			if g.Country == "CN" {
				return Message{}, false
			}
			if g.Country == "" && unplaced == nil && in.PriceCurrency() == "CNY" && !RegionUnstated(p.Region) {
				unplaced, unplacedRegion = in, p.Region
			}
		}
	}
	if unplaced != nil {
		// The user has copied an example overlay: telling them to copy one
		// again says nothing (walk); say what places its rows.
		return Msg("no region of the catalog is placed in China: the CNY-priced rows of %s name regions with no known country (such as %q); place them with a [[region]] table in the overlay (region = %q, country = \"CN\"; docs/data.md, \"China clouds and CNY prices\")", unplaced.Provider, unplacedRegion, unplacedRegion), true
	}
	return Msg("the catalog has no cloud region in China (marketplace hosts aside): Alibaba Cloud, Tencent Cloud and AutoDL come as example overlays in data/catalog/examples/, priced by you in CNY (copy one to ~/.config/gpuplan/catalog.d/ and rank with --usd-cny RATE; docs/data.md, \"China clouds and CNY prices\")"), true
}
