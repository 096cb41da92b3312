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
		return s.EachRow(func(r *report.MarketRowJSON) error {
			o.elem()
			o.marketRow(r)
			return o.err
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
// order.
func (o *jsonOut) marketRow(r *report.MarketRowJSON) {
	o.begin('{')
	o.str("provider", r.Provider)
	o.str("instance_type", r.InstanceType)
	o.str("gpu", r.GPU)
	o.int("gpu_count", r.GPUCount)
	o.float("vram_gib", r.VRAMGiB)
	o.float("total_vram_gib", r.TotalVRAMGiB)
	o.int("vcpus", r.VCPUs)
	o.float("ram_gib", r.RAMGiB)
	o.float("vcpus_per_gpu", r.VCPUsPerGPU)
	o.float("ram_gib_per_gpu", r.RAMGiBPerGPU)
	o.str("interconnect", r.Interconnect)
	o.str("fabric", r.Fabric)
	o.str("arch", r.Arch)
	o.str("pricing", r.Pricing)
	o.float("usd_per_hour", r.USDPerHour)
	o.float("usd_per_gpu_hour", r.USDPerGPUHour)
	o.float("usd_per_gib_hour", r.USDPerGiBHour)
	o.floatPtr("on_demand_usd_per_hour", r.OnDemandUSDPerHour)
	o.floatPtr("spot_usd_per_hour", r.SpotUSDPerHour)
	o.str("region", r.Region)
	o.str("country", r.Country)
	o.str("city", r.City)
	o.str("continent", r.Continent)
	o.strs("regions", r.Regions)
	o.int("regions_offered", r.RegionsOffered)
	o.bool("marketplace", r.Marketplace)
	o.str("retired", r.Retired)
	o.bool("held", r.Held)
	o.str("source", r.Source)
	o.str("as_of", r.AsOf)
	o.str("origin", r.Origin)
	o.end('}')
}
