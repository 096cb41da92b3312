package cli

import (
	"io"

	"github.com/gpuplan/gpuplan/ui/report"
)

// writeMarketJSON is writeJSONStream for `offers --json`: the same bytes
// as writeJSON of the MarketJSON s stands for, its rows (100,000 from a
// large overlay, ~95% of the document) appended straight to the buffer
// by writeRecommendJSON's jsonOut, not passed through jsontext's token
// writer, which was 37% of the command's CPU time. The groups, the rate
// list and the provenance go through the encoder. TestMarketJSONWriterSame
// holds every member of MarketJSON and MarketRowJSON to encoding/json.
func writeMarketJSON(w io.Writer, s *report.MarketStreamJSON) error {
	o := jsonOut{w: w, b: make([]byte, 0, 72<<10)}
	o.begin('{')
	o.str("pricing", s.Pricing)
	o.str("sort", s.Sort)
	o.str("group_by", s.GroupBy)
	o.bool("all_regions", s.AllRegions)
	if err := o.list("rows", s.Rows == nil && !s.Streamed(), func() error {
		return o.elemsInBlocks(s.RowCount(), marketBlocks, func() elemLayout {
			return func(w *jsonOut, from, to int) error {
				return s.EachRowIn(from, to, func(r *report.MarketRowJSON) error {
					w.elem()
					w.marketRow(r)
					return w.err
				})
			}
		})
	}); err != nil {
		return err
	}
	o.value("groups", s.Groups)
	o.int("rows_total", int64(s.RowsTotal))
	o.floatPtr("usd_cny", s.USDCNY)
	o.value("needs_rate", s.NeedsRate)
	o.value("prices", s.Prices)
	o.end('}')
	o.raw("\n")
	o.flush()
	return o.err
}

// marketRow appends one row as an object, its members in MarketRowJSON's
// order. A row's member starts are written from marketRowNames' keys
// (memberKeys), one append each: 100,000 rows of 33 members are most of the document.
func (o *jsonOut) marketRow(r *report.MarketRowJSON) {
	o.begin('{')
	k := o.rowKeys.at(o.indent, marketRowNames[:])
	o.strKey(k[0], r.Provider)
	o.strKey(k[1], r.InstanceType)
	o.strKey(k[2], r.GPU)
	o.intKey(k[3], int64(r.GPUCount))
	o.floatKey(k[4], r.VRAMGiB)
	o.floatKey(k[5], r.TotalVRAMGiB)
	o.intKey(k[6], int64(r.VCPUs))
	o.floatKey(k[7], r.RAMGiB)
	o.floatKey(k[8], r.VCPUsPerGPU)
	o.floatKey(k[9], r.RAMGiBPerGPU)
	o.strKey(k[10], r.Interconnect)
	o.strKey(k[11], r.Fabric)
	o.strKey(k[12], r.Arch)
	o.strKey(k[13], r.Pricing)
	o.floatKey(k[14], r.USDPerHour)
	o.floatKey(k[15], r.USDPerGPUHour)
	o.floatKey(k[16], r.USDPerGiBHour)
	o.floatPtrKey(k[17], r.OnDemandUSDPerHour)
	o.floatPtrKey(k[18], r.SpotUSDPerHour)
	o.strKey(k[19], r.Region)
	o.strKey(k[20], r.Country)
	o.strKey(k[21], r.City)
	o.strKey(k[22], r.Continent)
	o.strsKey(k[23], r.Regions)
	o.intKey(k[24], int64(r.RegionsOffered))
	o.boolKey(k[25], r.Marketplace)
	o.strKey(k[26], r.Retired)
	o.boolKey(k[27], r.Held)
	o.strKey(k[28], r.Source)
	o.strKey(k[29], r.AsOf)
	o.strKey(k[30], r.Origin)
	o.boolKey(k[31], r.RegionsUnconfirmed)
	o.strKey(k[32], r.RegionLabel)
	o.intKey(k[33], int64(r.PriceAgeDays))
	o.end('}')
}

// marketRowNames are MarketRowJSON's members in order (marketRow writes
// them by index).
var marketRowNames = [...]string{
	"provider", "instance_type", "gpu", "gpu_count", "vram_gib", "total_vram_gib",
	"vcpus", "ram_gib", "vcpus_per_gpu", "ram_gib_per_gpu", "interconnect", "fabric",
	"arch", "pricing", "usd_per_hour", "usd_per_gpu_hour", "usd_per_gib_hour",
	"on_demand_usd_per_hour", "spot_usd_per_hour", "region", "country", "city",
	"continent", "regions", "regions_offered", "marketplace", "retired", "held",
	"source", "as_of", "origin", "regions_unconfirmed", "region_label", "price_age_days",
}

// memberKeys returns what name writes before each of an object's members
// at indent, names being ASCII constants that need no escaping: the
// first's newline, the others' comma and newline, then the indentation,
// the quoted name and ": ".
func memberKeys(indent []byte, names []string) []string {
	keys := make([]string, len(names))
	for i, n := range names {
		sep := ",\n"
		if i == 0 {
			sep = "\n"
		}
		keys[i] = sep + string(indent) + `"` + n + `": `
	}
	return keys
}

// keySet is memberKeys of one object's names at one indentation, made
// at the first object and again when the indentation changes.
type keySet struct {
	keys   []string
	indent int
}

// at returns the keys of names at indent.
func (s *keySet) at(indent []byte, names []string) []string {
	if s.keys == nil || s.indent != len(indent) {
		s.keys, s.indent = memberKeys(indent, names), len(indent)
	}
	return s.keys
}

// key starts a member from memberKeys.
func (o *jsonOut) key(k string) {
	o.b = append(o.b, k...)
	o.first = false
}
