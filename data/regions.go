package data

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/show"
)

// regionsFile is where catalog/ keeps the region geography; it has its own
// schema (below), is embedded only (overlays place new regions by the
// providers' naming rules) and may be absent (no geography).
const regionsFile = "catalog/regions.toml"

// maxRegionRows bounds the table: every cloud has well under a hundred
// regions; more is a broken or hostile file.
const maxRegionRows = 5000

type rawRegions struct {
	SchemaVersion *int `toml:"schema_version"`
	Provider      []struct {
		Provider string `toml:"provider"`
		Source   string `toml:"source"`
		AsOf     date   `toml:"as_of"`
		Rule     string `toml:"rule"`
		Regions  []struct {
			Region    string `toml:"region"`
			Continent string `toml:"continent"`
			Country   string `toml:"country"`
			City      string `toml:"city"`
		} `toml:"regions"`
	} `toml:"provider"`
}

var geoRules = []string{model.GeoISOCountry, model.GeoPlaceCountryContinent, model.GeoCityCountryN}

// loadRegions reads catalog/regions.toml from fsys, if present: one
// [[provider]] block per provider with source, as_of, an optional naming
// rule and regions = [{ region, country, city, continent }], country an
// ISO 3166-1 alpha-2 code of model's table, continent a model.Continents
// key (given only when the country is not known). Every problem is
// reported, each naming the provider and region.
func loadRegions(fsys fs.FS) ([]model.ProviderRegions, error) {
	b, err := fs.ReadFile(fsys, regionsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, model.Msg("regions.toml: %v", unwrapPathError(err))
	}
	return decodeRegions(b)
}

func decodeRegions(b []byte) ([]model.ProviderRegions, error) {
	const name = "regions.toml"
	if err := safeio.CheckTOMLDepth(b); err != nil {
		return nil, model.Msg("%s: %v", name, err)
	}
	var raw rawRegions
	md, err := toml.Decode(string(b), &raw)
	if err != nil {
		return nil, model.Msg("%s: %v", name, err)
	}
	if extra := md.Undecoded(); len(extra) > 0 {
		return nil, model.Msg("%s: %s", name, unknownKeyMsg(extra[0]))
	}
	if raw.SchemaVersion == nil || *raw.SchemaVersion != SchemaVersion {
		return nil, model.Msg("%s: want schema_version = %d", name, SchemaVersion)
	}
	var errs []error
	var out []model.ProviderRegions
	rows := 0
	seen := map[[2]string]bool{}
	for _, p := range raw.Provider {
		bad := func(format string, args ...any) {
			errs = append(errs, model.Msg("%s: provider %q: %s", name, show.Printable(p.Provider), model.Msg(format, args...)))
		}
		if err := safeio.CheckName(p.Provider); err != nil || p.Provider == "" {
			bad("want a provider key such as \"aws\"")
			continue
		}
		if p.Source == "" {
			bad("missing source (where the regions' places come from)")
		}
		if err := checkDate("as_of", p.AsOf); err != nil {
			bad("%v", err)
		}
		if p.Rule != "" && !slices.Contains(geoRules, p.Rule) {
			bad("rule %q: want %s", show.Printable(p.Rule), strings.Join(geoRules, ", "))
		}
		pr := model.ProviderRegions{Provider: p.Provider, Rule: p.Rule, Source: p.Source, AsOf: string(p.AsOf)}
		for _, r := range p.Regions {
			if rows++; rows > maxRegionRows {
				return nil, model.Msg("%s: more than %d regions", name, maxRegionRows)
			}
			where := fmt.Sprintf("region %q", show.Printable(r.Region))
			if err := safeio.CheckName(r.Region); err != nil || r.Region == "" {
				bad("%s: want the provider's region name", where)
				continue
			}
			if seen[[2]string{p.Provider, r.Region}] {
				bad("%s twice", where)
				continue
			}
			seen[[2]string{p.Provider, r.Region}] = true
			if err := safeio.CheckName(r.City); err != nil {
				bad("%s: city: %v", where, err)
			}
			if r.Country != "" {
				if code, ok := model.CountryCode(r.Country); !ok || code != r.Country {
					bad("%s: country %q: want an upper-case ISO 3166-1 alpha-2 code of a known country, such as DE", where, show.Printable(r.Country))
				}
			}
			if r.Continent != "" && !slices.Contains(model.Continents, r.Continent) {
				bad("%s: continent %q: want %s", where, show.Printable(r.Continent), strings.Join(model.Continents, ", "))
			}
			if r.Country == "" && r.Continent == "" {
				bad("%s: want a country or a continent", where)
			}
			pr.Regions = append(pr.Regions, model.RegionGeo{Region: r.Region, Country: r.Country, City: r.City, Continent: r.Continent})
		}
		if len(pr.Regions) == 0 && pr.Rule == "" {
			bad("no regions and no rule")
		}
		out = append(out, pr)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// maxOverlayRegions bounds an overlay's [[region]] tables: a provider has
// fewer than 100 regions (as the 10,000 distinct regions a vms.csv may
// hold); more is a broken or hostile file.
const maxOverlayRegions = 10000

// rawRegion is an overlay's [[region]] table: where one region of the
// file's provider (or the table's own provider) is, so that its rows are
// found by --country and --regions asia as the embedded catalog's are
// (walk: an Alibaba Cloud overlay's cn-hangzhou rows matched neither
// --country cn nor --regions asia). country is an ISO 3166-1 alpha-2
// code, any case; city is optional.
type rawRegion struct {
	Provider string `toml:"provider"`
	Region   string `toml:"region"`
	Country  string `toml:"country"`
	City     string `toml:"city"`
}

// decodeOverlayRegions checks an overlay's [[region]] tables and returns
// them as one ProviderRegions per provider, sourced to the file (origin).
// Every problem is reported, each naming the table.
func decodeOverlayRegions(raw []rawRegion, fileProvider, origin string) ([]model.ProviderRegions, []error) {
	var errs []error
	var out []model.ProviderRegions
	seen := map[[2]string]bool{}
	for i, r := range raw {
		where := fmt.Sprintf("region #%d", i+1)
		if r.Region != "" && safeio.CheckName(r.Region) == nil {
			where = fmt.Sprintf("region %q", r.Region)
		}
		bad := func(format string, args ...any) {
			errs = append(errs, model.Msg("%s: %s", where, model.Msg(format, args...)))
		}
		provider := r.Provider
		if provider == "" {
			provider = fileProvider
		}
		if provider == "" {
			bad("no provider: give provider = \"...\" in the table or at the top of the file")
			continue
		}
		if err := safeio.CheckName(provider); err != nil {
			bad("provider: %v", err)
			continue
		}
		if r.Region == "" {
			bad("want region = \"...\", the provider's region name as its prices give it")
			continue
		}
		if err := safeio.CheckName(r.Region); err != nil {
			bad("%v", err)
			continue
		}
		if seen[[2]string{provider, r.Region}] {
			bad("given twice for provider %s", provider)
			continue
		}
		seen[[2]string{provider, r.Region}] = true
		code := strings.ToUpper(strings.TrimSpace(r.Country))
		if r.Country == "" {
			bad("want country = \"CN\" (an ISO 3166-1 alpha-2 code)")
			continue
		}
		if got, ok := model.CountryCode(code); !ok || got != code || len(code) != 2 {
			bad("country %q: want an ISO 3166-1 alpha-2 code of a known country, such as CN or DE", show.Printable(r.Country))
			continue
		}
		if err := safeio.CheckName(r.City); err != nil {
			bad("city: %v", err)
			continue
		}
		at := slices.IndexFunc(out, func(p model.ProviderRegions) bool { return p.Provider == provider })
		if at < 0 {
			out = append(out, model.ProviderRegions{Provider: provider, Source: origin})
			at = len(out) - 1
		}
		out[at].Regions = append(out[at].Regions, model.RegionGeo{Region: r.Region, Country: code, City: r.City})
	}
	return out, errs
}
