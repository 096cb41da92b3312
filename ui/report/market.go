package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

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
	// RowsTotal counts the rows before --limit, as recommend's
	// offers_total counts its offers (a script reads how many were cut).
	RowsTotal int `json:"rows_total"`
	// USDCNY is the rate given with --usd-cny (1 USD = usd_cny CNY); null
	// when none was given.
	USDCNY *float64 `json:"usd_cny"`
	// NeedsRate lists instance types priced in a currency without a rate:
	// listed, not ranked.
	NeedsRate []NeedsRateJSON `json:"needs_rate"`
	Prices    ProvenanceJSON  `json:"prices"`
	// MoreRows counts the rows --limit left out (market.Result.Limit),
	// said under the table; not in JSON, where --limit cuts the rows.
	MoreRows int `json:"-"`
	// CatalogAsOf is the catalog's date (model.Catalog.AsOf), from which a
	// row's price_age_days counts and past which by market.StaleAfter a
	// price is old, as recommend's (model.Recommendation.AsOf); "" leaves
	// ages out.
	CatalogAsOf string `json:"-"`
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
// overlay rows, unranked currencies, where the prices came from). width
// is the terminal's (ui/cli renderer): a table wider hides its least
// needed columns (fitMarketColumns) and a line under it names them;
// width ≤ 0 (a pipe or a file, -o wide) prints every column.
func WriteMarket(out io.Writer, r *Renderer, res *market.Result, m MarketJSON, width int) error {
	w := &errWriter{w: r.Writer(out)} // its first error is the result
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
		cells[10] = MarketRegionIn(lang, row) // "location not stated", "any of N regions" in the table's language
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
		if model.RegionsUnconfirmed(row.Instance.Provider) && len(row.Regions) <= 1 {
			// One region named: say it is no place the type is known to be
			// in. Several are "any of N regions", which a line under the
			// table explains (anyOfRegionsNote): a note on each such row
			// took the width of four columns at 120 (walk49).
			notes = append(notes, lang.T("region availability not published"))
		}
		return append(cells, strings.Join(notes, lang.T(", ")))
	}
	header = append(header, lang.T("notes"))
	var arm bool
	for i := range res.Rows {
		arm = arm || res.Rows[i].Arch() == model.ArchARM
	}
	// The tables' rows, one table a group (one in all when not grouped),
	// built before any is drawn: the groups hide the same columns.
	groups := [][]int{}
	if len(res.Groups) == 0 {
		at := make([]int, len(res.Rows))
		for i := range at {
			at[i] = i
		}
		groups = append(groups, at)
	}
	for _, g := range res.Groups {
		groups = append(groups, g.Rows)
	}
	// A price an overlay set gets OverlayMark, named under the table.
	var overlays overlayPrices
	tables := make([][][]string, len(groups))
	var all [][]string
	keys := make([][]string, len(groups)) // each row's GPU key, for CutGPUs
	for t, at := range groups {
		rows := make([][]string, 0, len(at))
		marked := make([]bool, 0, len(at))
		for _, i := range at {
			row := &res.Rows[i]
			rows = append(rows, mark(row))
			marked = append(marked, overlays.add(row.Provenance()))
			keys[t] = append(keys[t], row.Instance.GPU)
		}
		markPrices(rows, 4, marked)
		tables[t] = rows
		all = append(all, rows...)
	}
	shown := fitMarketColumns(header, all, width, marketKeep(res.Query))
	for t, rows := range tables {
		cutMarketCells(header, rows, keys[t], shown, width)
	}
	var idx []int
	var hs, hidden []string
	for j, ok := range shown {
		if ok {
			idx = append(idx, j)
			hs = append(hs, header[j])
		} else if !emptyColumn(all, j) {
			hidden = append(hidden, header[j])
		}
	}
	table := func(rows [][]string) string {
		if len(hidden) == 0 {
			return r.tableRight(header, rows, right)
		}
		rs := make([][]string, len(rows))
		for i, row := range rows {
			rs[i] = make([]string, 0, len(idx))
			for _, j := range idx {
				rs[i] = append(rs[i], row[j])
			}
		}
		return r.table(hs, rs, func(col int) bool { return right[idx[col]] })
	}
	for t, rows := range tables {
		if len(res.Groups) > 0 {
			if t > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w, MarketGroupLine(lang, &res.Groups[t]))
		}
		fmt.Fprintln(w, table(rows))
	}
	if len(hidden) > 0 {
		// Wrapped at the width between the names, where the terminal
		// would cut one: each name and "-o wide" kept whole by no-break
		// blanks for ansi.Wrap, put back after (WrapLine).
		keep := strings.NewReplacer(" ", "\u00a0")
		names := make([]string, len(hidden))
		for i, h := range hidden {
			names[i] = keep.Replace(h)
		}
		line := lang.Sprintf("Hidden to fit %d columns: %s (-o wide shows them).", width, strings.Join(names, lang.T(", ")))
		WrapLine(w, strings.Replace(line, "-o wide", keep.Replace("-o wide"), 1), width, "、")
	}
	// The lines under the tables wrap at the width between words as the
	// hidden note does (WrapLine); a pipe's (width ≤ 0) are whole.
	say := func(line string) { WrapLine(w, strings.TrimSuffix(line, "\n"), width, "") }
	if n := m.MoreRows; n == 1 {
		say(lang.Sprintf("… 1 more row (--limit 0 shows all)"))
	} else if n > 1 {
		say(lang.Sprintf("… %d more rows (--limit 0 shows all)", n))
	}
	say(marketCountLine(lang, res, m.MoreRows))
	if note := anyOfRegionsNote(lang, res.Rows); note != "" {
		say(note)
	}
	if note := marketOldPricesNote(lang, res.Rows, m.CatalogAsOf); note != "" {
		say(note)
	}
	if m.USDCNY != nil && slices.ContainsFunc(res.Rows, func(r market.Row) bool { return r.Instance.PriceCurrency() == "CNY" }) {
		// Only when a row it converted is listed (walk49: printed under
		// a table of USD rows alone).
		say(lang.Sprintf("CNY prices converted at 1 USD = %g CNY (--usd-cny).\n", *m.USDCNY))
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
		say(lang.Sprintf("Not ranked, priced in %s: %s%s — needs --usd-cny RATE (1 USD = RATE CNY).\n", m.NeedsRate[0].Currency, strings.Join(names, lang.T(", ")), more))
	}
	if arm {
		say(lang.Sprintf("arm64: %s.\n", lang.T("the host's CPU is arm64; wheels and images must be arm64"))) // not ArchNote again ("arm64: arm64 host: …")
	}
	for _, l := range overlays.legend(lang, OverlayMark) {
		say(l)
	}
	p := market.Provenance{}
	for _, o := range m.Prices.Origins {
		// An overlay's path is the user's: escaped (termsafe), as in errors.
		p.Origins = append(p.Origins, market.PriceOrigin{Origin: termsafe.String(o.Origin), Updated: o.Updated, AsOf: termsafe.String(o.AsOf), Types: o.Types})
	}
	say(lang.Sprintf("prices: %s", strings.Join(lang.Messages(p.LineParts()), lang.T("; "))) + lang.T("."))
	return w.err
}

// WrapLine prints line wrapped at width cells (whole when width ≤ 0)
// between words, or after a character of breaks or Chinese punctuation
// (a Chinese line has no blanks), where a terminal would cut a word
// (ansi.Wrap, which breaks a word longer than the width);
// hyphens are kept by no-break hyphens, so that a flag (--usd-cny) or a
// region (us-east-1) is not split; no-break blanks in line are put back
// as blanks. No line ends in a blank.
func WrapLine(w io.Writer, line string, width int, breaks string) {
	if width > 0 {
		line = ansi.Wrap(strings.ReplaceAll(line, "-", "\u2011"), width, breaks+"，；、。：）")
	}
	for _, l := range strings.Split(line, "\n") {
		fmt.Fprintln(w, strings.NewReplacer("\u00a0", " ", "\u2011", "-").Replace(strings.TrimRight(l, " ")))
	}
}

// MarketGroupLine heads a group of offers: "aws: 14,387 offers,
// $3.28–$39.35/h, $2.74–$4.92 per GPU-hour" (counts as Count groups
// them), "primeintellect: 5 of 6 offers shown, …" when --limit left some
// out, the ranges then being the shown rows'.
func MarketGroupLine(lang *i18n.Printer, g *market.Group) string {
	// RegionIn: a region group's key as the tables write it ("location not
	// stated", not Daytona's "earth"; walk49); GPU keys and providers
	// pass through unchanged.
	count := Count(lang, len(g.Rows), "offer")
	if g.Hidden > 0 { // --limit: the count and ranges are of the rows shown
		count = lang.Sprintf("%s of %s shown", model.Grouped(len(g.Rows)), Count(lang, len(g.Rows)+g.Hidden, "offer"))
	}
	return lang.Sprintf("%s: %s, %s/h, %s per GPU-hour", RegionIn(lang, g.Key), count,
		usdRange(g.MinUSDPerHour, g.MaxUSDPerHour), usdRange(g.MinUSDPerGPUHour, g.MaxUSDPerGPUHour))
}

// anyOfRegionsNote is the line under a market table when a row's region
// says "any of N regions" (MarketRegionIn), as recommend's
// (UnconfirmedRegionsNote); "" when none does.
func anyOfRegionsNote(lang *i18n.Printer, rows []market.Row) string {
	var providers []string
	for i := range rows {
		if r := &rows[i]; len(r.Regions) > 1 && model.RegionsUnconfirmed(r.Instance.Provider) && !slices.Contains(providers, r.Instance.Provider) {
			providers = append(providers, r.Instance.Provider)
		}
	}
	if len(providers) == 0 {
		return ""
	}
	return lang.Sprintf("any of N regions (%s): the catalog lists each type in every region at one price; which regions offer a type is not published", strings.Join(providers, lang.T(", ")))
}

// marketCountLine is the offers table's footer count: "100,207 offers
// (cheapest region per type), on-demand prices per hour; …".
//
// When --limit left more rows out, the count says how many of all are
// shown: "5 of 53 offers shown", not "5 offers" under "… 48 more rows"
// (walk), with --group-by gpu or provider too ("18 of 22": a walk read
// "18 offers" over groups holding 22); by region a row may stand in
// several groups, so the count stays the rows shown.
func marketCountLine(lang *i18n.Printer, res *market.Result, more int) string {
	what := "cheapest region per type"
	if res.Query.AllRegions {
		what = "every region price"
	}
	count := Count(lang, len(res.Rows), "offer")
	// With groups, more counts each group's hidden rows: the total of
	// every grouping but by region, where a row at one price in several
	// regions is in each of their groups (market.Result.Limit).
	if more > 0 && (len(res.Groups) == 0 || res.Query.GroupBy != market.GroupRegion) {
		count = lang.Sprintf("%s of %s shown", model.Grouped(len(res.Rows)), Count(lang, len(res.Rows)+more, "offer"))
	}
	return lang.Sprintf("%s (%s), %s prices per hour; +N counts other regions at the same price.",
		count, lang.T(what), PricingName(lang, res.Query.Pricing))
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

// marketDropOrder is the order in which a terminal too narrow for the
// offers table hides its columns (MarketMarkdownHeader's, then the notes
// at 12), least needed first, as `kubectl get` keeps a resource's name
// and status and leaves the rest to -o wide
// (https://kubectl.docs.kubernetes.io/references/kubectl/get/options/wide). Never
// hidden: provider, instance, GPUs and $/h, what names an offer and what
// it costs. In order:
//   - as of (11): the date of the price; the "prices: … as of" line under
//     the table says it for the catalog;
//   - RAM GiB/GPU (8) and vCPUs/GPU (7): the host's, seldom what a GPU
//     is chosen by;
//   - VRAM GiB (3): follows from the GPU the GPUs column names;
//   - $/GPU-h (5): $/h over the count the GPUs column gives;
//   - spot $/h (6): another pricing mode, which --pricing spot puts in $/h;
//   - interconnect (9), notes (12, arm64 hosts, marketplaces) and region
//     (10): not to be worked out from the other columns, so the last to go.
//
// The column sorted or grouped by is never hidden (marketKeep).
var marketDropOrder = []int{11, 8, 7, 3, 5, 6, 9, 12, 10}

// marketKeep is the columns q sorts and groups by, which a narrow table
// keeps (provider, GPUs and $/h are never hidden anyway).
func marketKeep(q market.Query) []int {
	var keep []int
	if q.GroupBy == market.GroupRegion {
		keep = append(keep, 10)
	}
	switch q.Sort {
	case market.ByGPUPrice:
		keep = append(keep, 5)
	case market.ByVRAMPrice, market.ByVRAM: // $/GiB-h is $/h over the VRAM column
		keep = append(keep, 3)
	case market.ByVCPUs:
		keep = append(keep, 7)
	case market.ByRAM:
		keep = append(keep, 8)
	}
	return keep
}

// fitMarketColumns returns which columns of the offers table to show
// within width cells (every column when width ≤ 0): it hides columns in
// marketDropOrder, never those in keep, until the table fits, then shows again
// the most needed of those hidden that still fit. Each column is its
// widest cell plus two blanks (layoutTable). A column every cell of
// which is empty is hidden first. Still too wide, cutMarketCells cuts
// each table's cells.
func fitMarketColumns(header []string, rows [][]string, width int, keep []int) []bool {
	shown := make([]bool, len(header))
	for j := range shown {
		shown[j] = true
	}
	if width <= 0 {
		return shown
	}
	widths := func() []int {
		ws := make([]int, len(header))
		for j, h := range header {
			ws[j] = cellWidth(h) + 2
		}
		for _, row := range rows {
			for j, c := range row {
				ws[j] = max(ws[j], cellWidth(c)+2)
			}
		}
		return ws
	}
	ws := widths()
	total := 0
	for _, x := range ws {
		total += x
	}
	// A column with no cell (notes, interconnect of single-GPU rows)
	// says nothing: it goes first, unnamed under the table.
	for j := range header {
		if total > width && !slices.Contains(keep, j) && slices.Contains(marketDropOrder, j) && emptyColumn(rows, j) {
			shown[j] = false
			total -= ws[j]
		}
	}
	var hid []int
	for _, j := range marketDropOrder {
		if total <= width {
			break
		}
		if slices.Contains(keep, j) || j >= len(header) || !shown[j] {
			continue
		}
		shown[j] = false
		total -= ws[j]
		hid = append(hid, j)
	}
	for k := len(hid) - 1; k >= 0; k-- { // the most needed first
		if j := hid[k]; total+ws[j] <= width {
			shown[j] = true
			total += ws[j]
		}
	}
	return shown
}

// cutMarketCells cuts the cells of one table (a group's, when grouped)
// whose shown columns are wider than width (a narrow terminal, Chinese
// headers two cells a character): the instance types first (down to
// minInstanceCells, as the recommend table does), then the GPUs cells'
// keys by whole words (CutGPUs, keys[i] the key of rows[i]), each by
// only as much as this table is over, changing rows; it never cuts a
// price. Another group's wider cells cut nothing here.
func cutMarketCells(header []string, rows [][]string, keys []string, shown []bool, width int) {
	if width <= 0 {
		return
	}
	widths := func() (int, []int) {
		ws := make([]int, len(header))
		for j, h := range header {
			ws[j] = cellWidth(h) + 2
		}
		for _, row := range rows {
			for j, c := range row {
				ws[j] = max(ws[j], cellWidth(c)+2)
			}
		}
		total := 0
		for j, x := range ws {
			if shown[j] {
				total += x
			}
		}
		return total, ws
	}
	total, ws := widths()
	if over := total - width; over > 0 {
		n := max(ws[1]-2-over, minInstanceCells, cellWidth(header[1]))
		for _, row := range rows {
			row[1] = Truncate(row[1], n)
		}
		total, ws = widths()
	}
	if over := total - width; over > 0 && len(keys) == len(rows) {
		n := max(ws[2]-2-over, cellWidth(header[2]))
		for i, row := range rows {
			row[2] = CutGPUs(row[2], keys[i], n)
		}
	}
}

// emptyColumn reports whether every row's cell j is empty.
func emptyColumn(rows [][]string, j int) bool {
	for _, row := range rows {
		if j < len(row) && row[j] != "" {
			return false
		}
	}
	return true
}
