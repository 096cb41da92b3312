package report

import (
	"math"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// MarketRowJSON is one row of the market as gpuplan offers --json prints
// it (and the CSV columns, in the same names and order). Prices are USD
// per hour; derived figures are rounded to 6 decimals.
type MarketRowJSON struct {
	Provider      string  `json:"provider"`
	InstanceType  string  `json:"instance_type"`
	GPU           string  `json:"gpu"` // catalog key: gpuplan catalog gpus
	GPUCount      int     `json:"gpu_count"`
	VRAMGiB       float64 `json:"vram_gib"`       // per GPU, GiB as the vendor states it
	TotalVRAMGiB  float64 `json:"total_vram_gib"` // vram_gib × gpu_count
	VCPUs         int     `json:"vcpus"`
	RAMGiB        float64 `json:"ram_gib"` // host RAM of the whole instance
	VCPUsPerGPU   float64 `json:"vcpus_per_gpu"`
	RAMGiBPerGPU  float64 `json:"ram_gib_per_gpu"`
	Interconnect  string  `json:"interconnect"` // between the instance's GPUs: nvlink, nvswitch, pcie, infinity-fabric; "" unknown
	Fabric        string  `json:"fabric"`       // between nodes: infiniband, efa, roce, rdma, gpudirect-tcpx, gpudirect-tcpxo; "" none known
	Arch          string  `json:"arch"`         // x86_64 or arm64
	Pricing       string  `json:"pricing"`      // the mode usd_per_hour is in
	USDPerHour    float64 `json:"usd_per_hour"` // whole instance
	USDPerGPUHour float64 `json:"usd_per_gpu_hour"`
	USDPerGiBHour float64 `json:"usd_per_gib_hour"` // per GiB of GPU memory
	// OnDemandUSDPerHour and SpotUSDPerHour are the lowest over regions;
	// null when unknown, never 0.
	OnDemandUSDPerHour *float64 `json:"on_demand_usd_per_hour"`
	SpotUSDPerHour     *float64 `json:"spot_usd_per_hour"`
	Region             string   `json:"region"`          // first of regions
	Country            string   `json:"country"`         // of region: ISO 3166-1 alpha-2; "" when not known
	City               string   `json:"city"`            // of region, where the provider names one
	Continent          string   `json:"continent"`       // of region: europe, asia, north-america, …; "" when not known
	Regions            []string `json:"regions"`         // every region at this price
	RegionsOffered     int      `json:"regions_offered"` // regions with any price in this mode
	Marketplace        bool     `json:"marketplace"`     // price changes by the hour
	Retired            string   `json:"retired"`         // YYYY-MM-DD; "" when offered
	// Held is set when the load guards held the price as fake or mistyped
	// (an overlay's, far below the GPU's floor or the provider's own): it
	// is listed last, not ranked, unless --trust-overlay.
	Held   bool   `json:"held"`
	Source string `json:"source"`
	AsOf   string `json:"as_of"`
	Origin string `json:"origin"` // "embedded" or an overlay path
	// RegionsUnconfirmed is set when the provider's regions say where a
	// price applies, not where the type is offered (model.RegionsUnconfirmed:
	// Lambda, OCI): region is then the first of regions by name, no place
	// the type is known to be in.
	RegionsUnconfirmed bool `json:"regions_unconfirmed"`
	// RegionLabel is the region as the tables write it, in English, without
	// its country and "+N": "any of 17 regions" for several unconfirmed
	// regions, "location not stated" for a placeholder (Daytona's "earth"),
	// else the region's name.
	RegionLabel string `json:"region_label"`
	// PriceAgeDays is how many days the price (as_of) is older than the
	// catalog (RowPriceAgeDays), as recommend --json's; past 90
	// (market.StaleAfter) the table says so under it.
	PriceAgeDays int `json:"price_age_days"`
}

// MarketGroupJSON is one group of gpuplan offers --group-by --json.
type MarketGroupJSON struct {
	Key              string  `json:"key"`   // GPU key, provider or region
	Count            int     `json:"count"` // rows shown (after --limit)
	Total            int     `json:"total"` // rows in the group before --limit
	MinUSDPerHour    float64 `json:"min_usd_per_hour"`
	MaxUSDPerHour    float64 `json:"max_usd_per_hour"`
	MinUSDPerGPUHour float64 `json:"min_usd_per_gpu_hour"`
	MaxUSDPerGPUHour float64 `json:"max_usd_per_gpu_hour"`
	Rows             []int   `json:"rows"` // indexes into rows
}

// MarketListJSON is the market's part of gpuplan offers --json
// (MarketJSON adds the rate and the prices' provenance).
type MarketListJSON struct {
	Pricing    string            `json:"pricing"`
	Sort       string            `json:"sort"`
	GroupBy    string            `json:"group_by"`    // "" when not grouped
	AllRegions bool              `json:"all_regions"` // false: each type at its cheapest price
	Rows       []MarketRowJSON   `json:"rows"`
	Groups     []MarketGroupJSON `json:"groups"` // empty when not grouped
}

// round6 rounds derived figures so that 98.32 ÷ 8 prints as 12.29.
func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

func knownUSD(v float64) *float64 {
	if v <= 0 {
		return nil
	}
	return &v
}

// NewMarketListJSON lays out res for encoding/json.
func NewMarketListJSON(res *market.Result) MarketListJSON {
	out := newMarketListHead(res)
	out.Rows = make([]MarketRowJSON, len(res.Rows))
	for i := range res.Rows {
		out.Rows[i] = marketRowJSON(&res.Rows[i])
		out.Rows[i].Regions = append([]string{}, out.Rows[i].Regions...)
	}
	return out
}

// newMarketListHead is NewMarketListJSON without the rows.
func newMarketListHead(res *market.Result) MarketListJSON {
	out := MarketListJSON{
		Pricing: string(res.Query.Pricing), Sort: string(res.Query.Sort), GroupBy: string(res.Query.GroupBy),
		AllRegions: res.Query.AllRegions, Groups: make([]MarketGroupJSON, len(res.Groups)),
	}
	for i, g := range res.Groups {
		out.Groups[i] = MarketGroupJSON{
			Key: g.Key, Count: len(g.Rows), Total: len(g.Rows) + g.Hidden, MinUSDPerHour: g.MinUSDPerHour, MaxUSDPerHour: g.MaxUSDPerHour,
			MinUSDPerGPUHour: round6(g.MinUSDPerGPUHour), MaxUSDPerGPUHour: round6(g.MaxUSDPerGPUHour),
			Rows: append([]int{}, g.Rows...),
		}
	}
	return out
}

// marketRowJSON lays out one row; its Regions is r's (never nil), shared.
func marketRowJSON(r *market.Row) MarketRowJSON {
	j := marketRowFields(r)
	j.OnDemandUSDPerHour, j.SpotUSDPerHour = knownUSD(r.OnDemandUSD), knownUSD(r.SpotUSD)
	return j
}

// noRegions is a row's Regions when it has none: [] in JSON, not null.
var noRegions = []string{}

// marketRowFields is marketRowJSON without the two optional prices
// (nil): MarketStreamJSON.EachRow points them at its own variables, so that a row
// allocates nothing.
func marketRowFields(r *market.Row) MarketRowJSON {
	in, geo := r.Instance, r.Geo()
	source, origin, asOf := r.Provenance()
	regions := r.Regions
	if regions == nil {
		regions = noRegions[:0:0]
	}
	return MarketRowJSON{
		Provider: in.Provider, InstanceType: in.Type, GPU: r.GPU.Key, GPUCount: in.GPUCount,
		VRAMGiB: r.VRAMGiB(), TotalVRAMGiB: round6(r.TotalVRAMGiB()), VCPUs: in.VCPUs, RAMGiB: in.MemoryGiB,
		VCPUsPerGPU: round6(r.VCPUsPerGPU()), RAMGiBPerGPU: round6(r.RAMPerGPUGiB()),
		Interconnect: in.Interconnect, Fabric: r.Fabric(), Arch: string(r.Arch()), Pricing: string(r.Pricing),
		USDPerHour: r.USDPerHour, USDPerGPUHour: round6(r.USDPerGPUHour()), USDPerGiBHour: round6(r.USDPerGiBHour()),
		Region: r.Region, Country: geo.Country, City: geo.City, Continent: geo.Continent,
		Regions: regions, RegionsOffered: r.Offered,
		Marketplace: r.Marketplace(), Retired: in.Retired, Held: r.Held(), Source: source, AsOf: asOf, Origin: origin,
		RegionsUnconfirmed: model.RegionsUnconfirmed(in.Provider), RegionLabel: marketRegionLabel(r),
	}
}

// marketRegionLabel is MarketRowJSON.RegionLabel.
func marketRegionLabel(r *market.Row) string {
	if n := len(r.Regions); n > 1 && model.RegionsUnconfirmed(r.Instance.Provider) {
		return model.Msg("any of %d regions", n).String()
	}
	return RegionIn(nil, r.Region)
}

// MarketCSVHeader is the CSV header: the JSON field names, regions joined
// by MarketCSVRegionSep.
var MarketCSVHeader = []string{
	"provider", "instance_type", "gpu", "gpu_count", "vram_gib", "total_vram_gib", "vcpus", "ram_gib",
	"vcpus_per_gpu", "ram_gib_per_gpu", "interconnect", "fabric", "arch", "pricing", "usd_per_hour",
	"usd_per_gpu_hour", "usd_per_gib_hour", "on_demand_usd_per_hour", "spot_usd_per_hour", "region",
	"regions", "regions_offered", "marketplace", "retired", "source", "as_of", "origin",
	"country", "city", "continent", "held",
	// Added after held, as JSON's: a row whose regions_unconfirmed is
	// true is in region_label's "any of N regions", and its region,
	// country and continent are only those of the first of them by name
	// (walk: lambda's row read as Japan, asia; OCI's as Morocco, africa).
	"region_label", "regions_unconfirmed",
}

// MarketCSVRegionSep joins a row's regions in its CSV regions cell: a
// region name may hold spaces and commas (Paperspace's "East Coast
// (NY2)", Vast's "Texas, US, NA"), never a semicolon (data.NameCheck
// refuses one), so the cell splits back into the names on it (attack
// r29: joined by spaces, "East Coast (NY2)" read as three regions).
const MarketCSVRegionSep = ";"

// MarketCSV returns the rows of res as RFC 4180 CSV (encoding/csv) with
// MarketCSVHeader, for pasting into a spreadsheet. Unknown prices are
// empty cells.
func MarketCSV(res *market.Result) (string, error) {
	rows := NewMarketListJSON(res).Rows
	recs := make([][]string, 0, len(rows))
	for _, r := range rows {
		recs = append(recs, []string{
			r.Provider, r.InstanceType, r.GPU, strconv.Itoa(r.GPUCount), csvFloat(r.VRAMGiB), csvFloat(r.TotalVRAMGiB),
			strconv.Itoa(r.VCPUs), csvFloat(r.RAMGiB), csvFloat(r.VCPUsPerGPU), csvFloat(r.RAMGiBPerGPU), r.Interconnect, r.Fabric, r.Arch,
			r.Pricing, csvFloat(r.USDPerHour), csvFloat(r.USDPerGPUHour), csvFloat(r.USDPerGiBHour), csvPtr(r.OnDemandUSDPerHour),
			csvPtr(r.SpotUSDPerHour), r.Region, strings.Join(r.Regions, MarketCSVRegionSep), strconv.Itoa(r.RegionsOffered),
			strconv.FormatBool(r.Marketplace), r.Retired, r.Source, r.AsOf, r.Origin,
			r.Country, r.City, r.Continent, strconv.FormatBool(r.Held),
			r.RegionLabel, strconv.FormatBool(r.RegionsUnconfirmed),
		})
	}
	var b strings.Builder
	err := writeCSV(&b, MarketCSVHeader, recs)
	return b.String(), err
}

// MarketMarkdownHeader is the header of the Markdown table: what people
// compare, narrower than the CSV.
var MarketMarkdownHeader = []string{
	"provider", "instance", "GPUs", "VRAM GiB", "$/h", "$/GPU-h", "spot $/h", "vCPUs/GPU", "RAM GiB/GPU",
	"interconnect", "region", "as of",
}

// mdCell escapes a cell for a GitHub-flavoured Markdown table: a pipe ends
// the cell and a newline the row; brackets would make a name from a file
// a link ([x](http://…)) and angle brackets an autolink or HTML tag.
func mdCell(s string) string {
	s = strings.NewReplacer("\\", "\\\\", "|", "\\|", "[", "\\[", "]", "\\]", "<", "\\<", ">", "\\>",
		"\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	if s == "" {
		return "—"
	}
	return s
}

// mdText escapes a line of text under a Markdown table (an overlay's
// footnote) as mdCell escapes a cell, and also the marks that would make
// a file's name or source emphasis or code ("*", "_", "`"): a line
// starting "* " would be a list item, so OverlayMark is escaped too.
func mdText(s string) string {
	return strings.NewReplacer("\\", "\\\\", "|", "\\|", "[", "\\[", "]", "\\]", "<", "\\<", ">", "\\>",
		"*", "\\*", "_", "\\_", "`", "\\`", "\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// usd formats a price to at most 4 decimals: "$98.32", "$0.0125".
func usd(v float64) string {
	if v <= 0 {
		return "—"
	}
	return "$" + strconv.FormatFloat(math.Round(v*1e4)/1e4, 'f', -1, 64)
}

// LinkNotStated is the interconnect cell of a multi-GPU row whose source
// does not say how its GPUs are joined (Lambda's 2× and 4× H100 SXM,
// DigitalOcean's 8× H100, RunPod's 2× and 4× MI300X: no provider page
// found states it): words, not a "?" a reader takes for a glitch
// (new-user walk).
const LinkNotStated = "not stated"

// perGPUCell is a per-GPU host figure (vCPUs, RAM GiB) as a table cell:
// one decimal at most, so Hyperbolic's 224 vCPUs over 3 GPUs read 74.7,
// not 74.666667 (walk49); JSON and CSV keep six decimals.
func perGPUCell(v float64) string { return csvFloat(math.Round(v*10) / 10) }

// MarketRegionIn is a market row's region cell in p's language: the
// region (RegionIn) with its country, "+N" counting the other regions at
// the same price; for a provider whose regions say where a price applies,
// not where a type is offered (model.RegionsUnconfirmed), several regions
// are "any of N regions", never the first by name (walk49: Lambda's
// "asia-northeast-1 +16" read as Tokyo).
func MarketRegionIn(p *i18n.Printer, r *market.Row) string {
	n := len(r.Regions)
	if n > 1 && model.RegionsUnconfirmed(r.Instance.Provider) {
		return p.Sprintf("any of %d regions", n)
	}
	region := RegionIn(p, r.Region) + model.RegionCountrySuffix(r.Region, r.Geo().Country)
	if n > 1 {
		region += " +" + strconv.Itoa(n-1)
	}
	return region
}

// MarketMarkdownRow returns one row's cells, in MarketMarkdownHeader's
// order, unescaped: for a terminal table as well as for Markdown.
func MarketMarkdownRow(r *market.Row) []string {
	link := r.Instance.Interconnect
	if link == "" && r.Instance.GPUCount > 1 {
		link = LinkNotStated // the catalog's source does not state how the GPUs are joined
	}
	if f := r.Fabric(); f != "" && link != "" {
		link += " + " + f
	} else if f != "" {
		link = f // a one-GPU host: no link between its GPUs, a fabric between hosts (p5.4xlarge)
	}
	region := MarketRegionIn(nil, r)
	name := r.Instance.Type
	switch {
	case r.Held() && r.Trusted():
		name += " (looks fake; trusted)" // ranked as --trust-overlay asks: not "held" (walk, 2026-12-06)
	case r.Held():
		name += " (held: looks fake)" // the guards flagged it: --trust-overlay ranks it
	}
	if r.Instance.Retired != "" {
		name += " (retired " + r.Instance.Retired + ")"
	} else if r.Instance.MissingSince != "" {
		name += " (not in the latest fetch, " + r.Instance.MissingSince + ")"
	}
	_, _, asOf := r.Provenance()
	spot := usd(r.SpotUSD)
	if r.SpotVaries && r.SpotUSD > 0 {
		spot = "≥" + spot // the lowest of the row's regions, not Region's: at least this
	}
	return []string{
		r.Instance.Provider, name, strconv.Itoa(r.Instance.GPUCount) + "× " + r.GPU.Key,
		csvFloat(r.GPU.MemoryGiB) + " (" + csvFloat(round6(r.TotalVRAMGiB())) + ")", usd(r.USDPerHour), usd(r.USDPerGPUHour()),
		spot, perGPUCell(r.VCPUsPerGPU()), perGPUCell(r.RAMPerGPUGiB()), link, region, asOf,
	}
}

// MarketMarkdown returns the rows of res as a GitHub-flavoured Markdown
// table, for pasting into an issue or a doc. Prices are in the result's pricing mode;
// "+N" after a region counts the other regions at the same price. A
// price an overlay set is marked OverlayMark, and the lines under the
// table name the overlays, as WriteMarket's table (in English, as the
// header: Markdown is for pasting, as CSV). A blank line ends the table:
// GFM reads a line right under it as one more row.
func MarketMarkdown(res *market.Result) string {
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" ")
			b.WriteString(mdCell(c))
			b.WriteString(" |")
		}
		b.WriteString("\n")
	}
	line(MarketMarkdownHeader)
	b.WriteString("|")
	for i := range MarketMarkdownHeader {
		if i >= 3 && i <= 8 {
			b.WriteString("--:|") // numbers right-aligned
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	var overlays overlayPrices
	for i := range res.Rows {
		row := &res.Rows[i]
		cells := MarketMarkdownRow(row)
		if overlays.add(row.Provenance()) {
			cells[4] += OverlayMark // a lone "*" after a figure is literal in GFM: no emphasis to close
		}
		line(cells)
	}
	for _, l := range overlays.legend(nil, OverlayMark) {
		b.WriteString("\n")
		b.WriteString(mdText(l))
		b.WriteString("\n")
	}
	return b.String()
}
