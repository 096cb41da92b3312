package cli

import (
	"io"
	"strconv"

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
	o.floatPtr("usd_cny", s.USDCNY)
	o.value("needs_rate", s.NeedsRate)
	o.value("prices", s.Prices)
	o.end('}')
	o.raw("\n")
	o.flush()
	return o.err
}

// marketRow appends one row as an object, its members in MarketRowJSON's
// order. A row's member starts are written from marketKeys, one append
// each: 100,000 rows of 31 members are most of the document.
func (o *jsonOut) marketRow(r *report.MarketRowJSON) {
	o.begin('{')
	if len(o.rowKeys) == 0 || o.rowKeysIndent != len(o.indent) {
		o.rowKeys, o.rowKeysIndent = memberKeys(o.indent, marketRowNames[:]), len(o.indent)
	}
	k := o.rowKeys
	o.key(k[0])
	o.strValue(r.Provider)
	o.key(k[1])
	o.strValue(r.InstanceType)
	o.key(k[2])
	o.strValue(r.GPU)
	o.key(k[3])
	o.b = strconv.AppendInt(o.b, int64(r.GPUCount), 10)
	o.key(k[4])
	o.floatValue(r.VRAMGiB)
	o.key(k[5])
	o.floatValue(r.TotalVRAMGiB)
	o.key(k[6])
	o.b = strconv.AppendInt(o.b, int64(r.VCPUs), 10)
	o.key(k[7])
	o.floatValue(r.RAMGiB)
	o.key(k[8])
	o.floatValue(r.VCPUsPerGPU)
	o.key(k[9])
	o.floatValue(r.RAMGiBPerGPU)
	o.key(k[10])
	o.strValue(r.Interconnect)
	o.key(k[11])
	o.strValue(r.Fabric)
	o.key(k[12])
	o.strValue(r.Arch)
	o.key(k[13])
	o.strValue(r.Pricing)
	o.key(k[14])
	o.floatValue(r.USDPerHour)
	o.key(k[15])
	o.floatValue(r.USDPerGPUHour)
	o.key(k[16])
	o.floatValue(r.USDPerGiBHour)
	o.key(k[17])
	o.floatPtrValue(r.OnDemandUSDPerHour)
	o.key(k[18])
	o.floatPtrValue(r.SpotUSDPerHour)
	o.key(k[19])
	o.strValue(r.Region)
	o.key(k[20])
	o.strValue(r.Country)
	o.key(k[21])
	o.strValue(r.City)
	o.key(k[22])
	o.strValue(r.Continent)
	o.key(k[23])
	o.strsValue(r.Regions)
	o.key(k[24])
	o.b = strconv.AppendInt(o.b, int64(r.RegionsOffered), 10)
	o.key(k[25])
	o.b = strconv.AppendBool(o.b, r.Marketplace)
	o.key(k[26])
	o.strValue(r.Retired)
	o.key(k[27])
	o.b = strconv.AppendBool(o.b, r.Held)
	o.key(k[28])
	o.strValue(r.Source)
	o.key(k[29])
	o.strValue(r.AsOf)
	o.key(k[30])
	o.strValue(r.Origin)
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
	"source", "as_of", "origin",
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
