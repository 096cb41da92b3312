package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// ProviderRow is one provider of gpuplan catalog providers (--json): how
// much of the market it is in the loaded catalog and where its figures
// come from.
type ProviderRow struct {
	Provider      string   `json:"provider"`
	InstanceTypes int      `json:"instance_types"` // types it sells, retired ones included
	Offers        int      `json:"offers"`         // region prices (a type in a region)
	Regions       int      `json:"regions"`        // distinct regions priced
	Marketplace   bool     `json:"marketplace"`    // hosts' prices that change by the hour
	AsOf          string   `json:"as_of"`          // its newest price's date, YYYY-MM-DD
	Origins       []string `json:"origins"`        // "embedded" and the overlay files that priced it
	Currency      string   `json:"currency"`       // USD, or CNY for a provider priced in yuan
	// RegionsSource is where its regions' places come from
	// (catalog/regions.toml, an overlay's [[region]]); "" when none.
	RegionsSource string `json:"regions_source"`
	// Retired is the date the provider shut down, YYYY-MM-DD, when every
	// type it sells is retired (Catalog.ProviderRetirement: cudo,
	// 2026-03-31), as offers' retired field; "" when it offers any.
	Retired string `json:"retired"`
}

// NewProviderRows lists c's providers, sorted by name.
func NewProviderRows(c *model.Catalog) []ProviderRow {
	at := map[string]int{}
	var rows []ProviderRow
	regions := map[string]map[string]bool{}
	for i := range c.Instances {
		in := &c.Instances[i]
		j, ok := at[in.Provider]
		if !ok {
			j = len(rows)
			at[in.Provider] = j
			rows = append(rows, ProviderRow{Provider: in.Provider, Marketplace: slices.Contains(model.MarketplaceProviders, in.Provider), Origins: []string{}, Currency: in.PriceCurrency()})
			regions[in.Provider] = map[string]bool{}
		}
		r := &rows[j]
		r.InstanceTypes++
		if in.PriceCurrency() != r.Currency {
			r.Currency = "mixed"
		}
		for k := range in.Prices {
			p := &in.Prices[k]
			r.Offers++
			regions[in.Provider][p.Region] = true
			_, origin, asOf := model.PriceProvenance(in, p)
			if asOf > r.AsOf {
				r.AsOf = asOf
			}
			if !slices.Contains(r.Origins, origin) {
				r.Origins = append(r.Origins, origin)
			}
		}
	}
	for i := range rows {
		r := &rows[i]
		r.Regions = len(regions[r.Provider])
		r.Retired, _, _ = c.ProviderRetirement(r.Provider)
		slices.Sort(r.Origins)
		for _, pr := range c.Regions { // the last block wins, as the geography's look-up
			if pr.Provider == r.Provider {
				r.RegionsSource = pr.Source
			}
		}
	}
	slices.SortFunc(rows, func(a, b ProviderRow) int { return strings.Compare(a.Provider, b.Provider) })
	return rows
}

// WriteCatalogProviders prints the providers table (NewProviderRows).
func WriteCatalogProviders(out io.Writer, r *Renderer, c *model.Catalog) error {
	p := r.Lang
	rows := NewProviderRows(c)
	cells := make([][]string, 0, len(rows))
	live, markets := 0, 0
	var retired []string
	for _, row := range rows {
		market := p.T("no")
		if row.Marketplace {
			market = p.T("yes")
		}
		name := row.Provider
		switch {
		case row.Retired != "": // as offers names a retired type: "(retired 2026-03-31)"
			name = p.Sprintf("%s (retired %s)", row.Provider, row.Retired)
			retired = append(retired, row.Provider)
		case row.Marketplace:
			markets++
		default:
			live++
		}
		cells = append(cells, []string{name, strconv.Itoa(row.InstanceTypes), model.Grouped(row.Offers), strconv.Itoa(row.Regions),
			market, row.Currency, row.AsOf, r.Cut(termsafe.String(strings.Join(row.Origins, ", ")), 40)}) // an overlay's path is the user's: escaped, as in errors
	}
	w := &errWriter{w: r.Writer(out)}
	fmt.Fprintln(w, r.tableRight(translate(p, "provider", "instance types", "region prices", "regions", "marketplace", "currency", "as of", "origin"), cells,
		map[int]bool{1: true, 2: true, 3: true}))
	fmt.Fprintln(w, p.Message(providersFooter(len(rows), live, markets, retired)))
	return w.err
}

// providersFooter is the line under the providers table: how many, and
// of them how many are offered (live), marketplaces (offered on request)
// and retired (named: offers and recommend refuse them), as the README
// counts them ("18 providers … marketplaces … on request"). A count of
// none is left out.
func providersFooter(n, live, markets int, retired []string) model.Message {
	parts := model.Msg("%d live", live)
	if markets > 0 {
		parts = model.Msg("%v, %v", parts, model.CountMsg(markets, "marketplace"))
	}
	if len(retired) > 0 {
		parts = model.Msg("%v, %v", parts, model.Msg("%d retired (%s)", len(retired), strings.Join(retired, ", ")))
	}
	return model.Msg("%d providers: %v; offers are region prices (an instance type in a region); as of is each provider's newest price. Sources: --json.", n, parts)
}

// WriteCatalogProvidersCSV writes NewProviderRows as CSV, the JSON
// fields as columns (origins joined by ";").
func WriteCatalogProvidersCSV(out io.Writer, c *model.Catalog) error {
	var recs [][]string
	for _, r := range NewProviderRows(c) {
		recs = append(recs, []string{r.Provider, strconv.Itoa(r.InstanceTypes), strconv.Itoa(r.Offers), strconv.Itoa(r.Regions),
			strconv.FormatBool(r.Marketplace), r.AsOf, strings.Join(r.Origins, ";"), r.Currency, r.RegionsSource, r.Retired})
	}
	return writeCSV(out, []string{"provider", "instance_types", "offers", "regions", "marketplace", "as_of", "origins", "currency", "regions_source", "retired"}, recs)
}
