package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// CSV output (-o csv): one header row, then one record per row of the
// matching JSON (RFC 4180 through encoding/csv), full names and plain
// numbers so a spreadsheet or `cut` reads them. Unknown numbers are empty.

func csvFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func csvPtr(v *float64) string {
	if v == nil {
		return ""
	}
	return csvFloat(*v)
}

// CSVCell neutralises a cell that a spreadsheet would run as a formula
// (OWASP, "CSV Injection": a cell starting with =, +, -, @, tab or
// carriage return) by a leading "'"; a number (-3.5) is left as it is.
// Names, sources and origins come from overlays and are untrusted text.
func CSVCell(s string) string {
	if s == "" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return s
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "xXnN") { // not 0x…, Inf, NaN
		return s
	}
	return "'" + s
}

// writeCSV is every CSV writer's: each cell goes through CSVCell.
func writeCSV(out io.Writer, header []string, rows [][]string) error {
	w := csv.NewWriter(out)
	safe := func(rec []string) []string {
		c := make([]string, len(rec))
		for i, s := range rec {
			c[i] = CSVCell(s)
		}
		return c
	}
	if err := w.Write(safe(header)); err != nil {
		return err
	}
	for _, r := range rows {
		if err := w.Write(safe(r)); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

// WriteRecommendCSV writes the ranked offers, best first: those of the
// table's first limit rows (OffersInRows), all for limit ≤ 0.
// Each row carries its price's source, as_of and origin (the overlay
// file that set it, or "embedded"), as offers -o csv (MarketCSV) and the
// JSON do, then the layout the offer runs (strategy: FSDP where DDP does
// not fit, which gpus alone does not say), its VRAM need per GPU and its
// memory verdict, added after origin so that columns read by position
// keep theirs; then where the region is (country, city, continent), as
// offers -o csv has it. Figures are rounded as the JSON rounds them (a month at
// $53.52 an hour read 39069.600000000006).
func WriteRecommendCSV(out io.Writer, rec *model.Recommendation, limit int) error {
	header := []string{"provider", "instance_type", "region", "gpu", "gpus", "instances", "pricing",
		"usd_per_hour", "usd_per_month", "job_hours", "job_usd", "headroom_pct", "source", "as_of", "origin",
		"strategy", "vram_need_gib", "verdict", "country", "city", "continent",
		// Last, so columns read by position keep theirs: true where the
		// provider's regions say where a price applies, not where the type
		// is offered (Lambda, OCI), as the JSON and offers -o csv say.
		"regions_unconfirmed"}
	var rows [][]string
	for i := range OffersInRows(rec.Offers, limit) { // --limit counts the table's rows
		o := &rec.Offers[i]
		job, cost := "", ""
		source, origin := o.Provenance() // the price's: an overlay's region price names the overlay, as offers -o csv
		if o.HasJob {
			job, cost = csvFloat(RoundHours(o.JobHours)), csvFloat(RoundUSD(o.JobUSD))
		}
		rows = append(rows, []string{o.Instance.Provider, o.Instance.Type, o.Region, o.GPU.Key, strconv.Itoa(o.GPUs),
			strconv.Itoa(max(o.Instances, 1)), string(o.Pricing), csvFloat(Round(o.USDPerHour, 4)), csvFloat(Round(o.MonthlyUSD, 2)), job, cost,
			strconv.FormatFloat(o.HeadroomPct, 'f', 1, 64), source, o.PriceAsOf(), origin,
			string(o.Strategy), csvFloat(Round(o.NeedBytes/model.GiB, 2)), string(o.Verdict), o.Geo.Country, o.Geo.City, o.Geo.Continent,
			strconv.FormatBool(model.RegionsUnconfirmed(o.Instance.Provider))})
	}
	return writeCSV(out, header, rows)
}

// WriteCatalogGPUsCSV writes one record per GPU, with its source and
// as_of date last (as_of added after source, so columns read by position
// keep theirs).
func WriteCatalogGPUsCSV(out io.Writer, c *model.Catalog) error {
	var rows [][]string
	for _, g := range NewGPURows(c) {
		t := g.TFLOPS
		rows = append(rows, []string{g.Key, g.Name, g.Vendor, g.Architecture, csvFloat(g.MemoryGiB), csvPtr(g.MemoryBandwidthGBps),
			csvPtr(t.FP32), csvPtr(t.TF32), csvPtr(t.BF16), csvPtr(t.FP16), csvPtr(t.FP8), g.ComputeCapability, g.Source, g.AsOf})
	}
	return writeCSV(out, []string{"key", "name", "vendor", "architecture", "memory_gib", "memory_bandwidth_gbps",
		"fp32_tflops", "tf32_tflops", "bf16_tflops", "fp16_tflops", "fp8_tflops", "compute_capability", "source", "as_of"}, rows)
}

// WriteCatalogModelsCSV writes one record per model, then where its shape
// (source) and its parameter count (params_source) come from and its
// as_of date, after the figures so columns read by position keep theirs.
func WriteCatalogModelsCSV(out io.Writer, c *model.Catalog) error {
	var rows [][]string
	for _, m := range NewModelRows(c) {
		rows = append(rows, []string{m.Key, m.Name, m.Family, strconv.FormatInt(m.Params, 10), strconv.FormatInt(m.ActiveParams, 10),
			m.Source, m.ParamsSource, m.AsOf})
	}
	return writeCSV(out, []string{"key", "name", "family", "params", "active_params", "source", "params_source", "as_of"}, rows)
}
