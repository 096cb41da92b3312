package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// MarketJSON is gpuplan offers --json: MarketListJSON plus the exchange
// rate used, the offers left unranked for want of one, and where the
// prices came from.
type MarketJSON struct {
	MarketListJSON
	// USDCNY is the rate given with --usd-cny (1 USD = usd_cny CNY); null
	// when none was given.
	USDCNY *float64 `json:"usd_cny"`
	// NeedsRate lists instance types priced in a currency without a rate:
	// listed, not ranked.
	NeedsRate []NeedsRateJSON `json:"needs_rate"`
	Prices    ProvenanceJSON  `json:"prices"`
}

// NeedsRateJSON is an instance type that needs an exchange rate to rank.
type NeedsRateJSON struct {
	Provider     string `json:"provider"`
	InstanceType string `json:"instance_type"`
	Currency     string `json:"currency"`
	Origin       string `json:"origin"`
}

// ProvenanceJSON is where the prices came from (market.Provenance).
type ProvenanceJSON struct {
	AsOf    string            `json:"as_of"` // newest list prices: embedded or catalog update
	Origins []PriceOriginJSON `json:"origins"`
}

// PriceOriginJSON is one market.PriceOrigin.
type PriceOriginJSON struct {
	Origin  string `json:"origin"` // "embedded" or a file path
	Updated bool   `json:"updated"`
	AsOf    string `json:"as_of"`
	Types   int    `json:"types"`
}

// NewProvenanceJSON lays out p for JSON.
func NewProvenanceJSON(p market.Provenance) ProvenanceJSON {
	out := ProvenanceJSON{AsOf: p.PricesAsOf(), Origins: []PriceOriginJSON{}}
	for _, o := range p.Origins {
		out.Origins = append(out.Origins, PriceOriginJSON{Origin: o.Origin, Updated: o.Updated, AsOf: o.AsOf, Types: o.Types})
	}
	return out
}

// NeedsRate returns the instance types of c priced in a currency that
// rates has no rate for, among the providers asked (all when empty), so
// they can be listed as "needs --usd-cny" rather than silently dropped.
func NeedsRate(c *model.Catalog, providers []string, rates map[string]float64) []NeedsRateJSON {
	out := []NeedsRateJSON{}
	for i := range c.Instances {
		in := &c.Instances[i]
		cur := in.PriceCurrency()
		if cur == "USD" || rates[cur] > 0 || in.Retired != "" || len(in.Prices) == 0 {
			continue
		}
		if len(providers) > 0 && !slices.Contains(providers, in.Provider) {
			continue
		}
		out = append(out, NeedsRateJSON{Provider: in.Provider, InstanceType: in.Type, Currency: cur, Origin: in.Origin})
	}
	return out
}

// ArchNote is the warning an arm64 host carries wherever it is listed.
const ArchNote = "arm64 host: wheels and images must be arm64"

// MarketTableRow is MarketMarkdownRow for a terminal table (this
// command's and the configurator's market browser): the price columns by
// one rule (USDPerHour), not the catalog's own decimals: "$0.3785",
// "$0.4200", "$23.60", "$58.89".
func MarketTableRow(row *market.Row) []string {
	cells := MarketMarkdownRow(row)
	cells[4], cells[5], cells[6] = USDPerHour(row.USDPerHour), USDPerHour(row.USDPerGPUHour()), USDPerHour(row.SpotUSD)
	if row.SpotVaries && row.SpotUSD > 0 {
		cells[6] = "≥" + cells[6] // the lowest of the row's regions: at least this
	}
	return cells
}

// WriteMarket prints a market listing as a table: one row per choice,
// "+N" after a region counting the other regions at the same price, and
// under it the notes a reader needs (groups' price ranges, arm64 hosts,
// overlay rows, unranked currencies, where the prices came from).
func WriteMarket(out io.Writer, r *Renderer, res *market.Result, m MarketJSON) error {
	w := r.Writer(out)
	lang := r.Lang
	header := translate(lang, append([]string{}, MarketMarkdownHeader...)...)
	right := map[int]bool{3: true, 4: true, 5: true, 6: true, 7: true, 8: true}
	mark := func(row *market.Row) []string {
		cells := MarketTableRow(row)
		// The words the row's cells may hold for what its source does not
		// state, in the table's language (JSON, CSV and Markdown keep English).
		if rest, ok := strings.CutPrefix(cells[9], LinkNotStated); ok {
			cells[9] = lang.T(LinkNotStated) + rest
		}
		if base, _, _ := strings.Cut(row.Region, " +"); model.RegionUnstated(base) {
			cells[10] = RegionIn(lang, row.Region) + strings.TrimPrefix(cells[10], RegionIn(nil, row.Region))
		}
		for i := range cells {
			cells[i] = r.Cut(cells[i], 40)
		}
		var notes []string
		if row.Arch() == model.ArchARM {
			notes = append(notes, "arm64")
		}
		if row.Marketplace() {
			notes = append(notes, lang.T("marketplace"))
		}
		if slices.Contains(model.RegionsUnconfirmedProviders, row.Instance.Provider) {
			notes = append(notes, lang.T("region availability not published"))
		}
		return append(cells, strings.Join(notes, lang.T(", ")))
	}
	header = append(header, lang.T("notes"))
	var arm bool
	for i := range res.Rows {
		arm = arm || res.Rows[i].Arch() == model.ArchARM
	}
	// A price an overlay set gets OverlayMark, named under the table.
	var overlays overlayPrices
	table := func(at []int) string {
		rows := make([][]string, 0, len(at))
		marked := make([]bool, 0, len(at))
		for _, i := range at {
			row := &res.Rows[i]
			rows = append(rows, mark(row))
			marked = append(marked, overlays.add(row.Provenance()))
		}
		markPrices(rows, 4, marked)
		return r.tableRight(header, rows, right)
	}
	if len(res.Groups) == 0 {
		at := make([]int, len(res.Rows))
		for i := range at {
			at[i] = i
		}
		fmt.Fprintln(w, table(at))
	} else {
		for gi, g := range res.Groups {
			if gi > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w, MarketGroupLine(lang, &g))
			fmt.Fprintln(w, table(g.Rows))
		}
	}
	fmt.Fprintln(w, marketCountLine(lang, res))
	if m.USDCNY != nil {
		lang.Fprintf(w, "CNY prices converted at 1 USD = %g CNY (--usd-cny).\n", *m.USDCNY)
	}
	if n := len(m.NeedsRate); n > 0 {
		var names []string
		for _, x := range m.NeedsRate[:min(n, 5)] {
			names = append(names, x.Provider+"/"+x.InstanceType)
		}
		more := ""
		if n > 5 {
			more = lang.Sprintf(" and %s more", model.Grouped(n-5))
		}
		lang.Fprintf(w, "Not ranked, priced in %s: %s%s — needs --usd-cny RATE (1 USD = RATE CNY).\n", m.NeedsRate[0].Currency, strings.Join(names, lang.T(", ")), more)
	}
	if arm {
		lang.Fprintf(w, "arm64: %s.\n", lang.T(ArchNote))
	}
	for _, l := range overlays.legend(lang, OverlayMark) {
		fmt.Fprintln(w, l)
	}
	p := market.Provenance{}
	for _, o := range m.Prices.Origins {
		// An overlay's path is the user's: escaped (termsafe), as in errors.
		p.Origins = append(p.Origins, market.PriceOrigin{Origin: termsafe.String(o.Origin), Updated: o.Updated, AsOf: termsafe.String(o.AsOf), Types: o.Types})
	}
	_, err := fmt.Fprintf(w, "%s%s\n", lang.Sprintf("prices: %s", strings.Join(lang.Messages(p.LineParts()), lang.T("; "))), lang.T("."))
	return err
}

// MarketGroupLine heads a group of offers: "aws: 14,387 offers,
// $3.28–$39.35/h, $2.74–$4.92 per GPU-hour" (counts as Count groups them).
func MarketGroupLine(lang *i18n.Printer, g *market.Group) string {
	return lang.Sprintf("%s: %s, %s/h, %s per GPU-hour", g.Key, Count(lang, len(g.Rows), "offer"),
		usdRange(g.MinUSDPerHour, g.MaxUSDPerHour), usdRange(g.MinUSDPerGPUHour, g.MaxUSDPerGPUHour))
}

// marketCountLine is the offers table's footer count: "100,207 offers
// (cheapest region per type), on-demand prices per hour; …".
func marketCountLine(lang *i18n.Printer, res *market.Result) string {
	what := "cheapest region per type"
	if res.Query.AllRegions {
		what = "every region price"
	}
	return lang.Sprintf("%s (%s), %s prices per hour; +N counts other regions at the same price.",
		Count(lang, len(res.Rows), "offer"), lang.T(what), PricingName(lang, res.Query.Pricing))
}

func marketPlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// usdRange prints a group's price range, one price when min = max.
func usdRange(lo, hi float64) string {
	if USD(lo) == USD(hi) {
		return USD(lo)
	}
	return USD(lo) + "–" + USD(hi)
}
