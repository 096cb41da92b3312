package report

import (
	"encoding/json"
	"errors"
	"math"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gpuplan/gpuplan/model/market"
)

// The rows a command prints by the thousand (MarketRowJSON, OfferJSON)
// write their fields as tokens (MarshalJSONTo, called by the streaming
// encoder of go-json-experiment/json) instead of going through reflection:
// per field, reflection looks the type up among the caller's marshalers
// and walks the struct's field table, which was most of `offers --json`'s
// time (100,000 rows) and a third of `recommend --json`'s. The bytes are
// encoding/json's (the fields in declaration order, its omitempty, nil
// slices as null, floats in its format, strings escaped as it does), which
// TestRowTokensSame in ui/cli holds against encoding/json for every field.

// tokens writes one object's members, keeping the first error.
type tokens struct {
	enc *jsontext.Encoder
	err error
}

func (t *tokens) tok(k jsontext.Token) {
	if t.err == nil {
		t.err = t.enc.WriteToken(k)
	}
}

func (t *tokens) begin() { t.tok(jsontext.BeginObject) }
func (t *tokens) end() error {
	t.tok(jsontext.EndObject)
	return t.err
}

// name writes a member name: the names here are ASCII constants.
func (t *tokens) name(n string) { t.tok(jsontext.String(n)) }

func (t *tokens) str(n, s string) {
	t.name(n)
	t.strValue(s)
}

// strValue writes s as encoding/json would: each invalid UTF-8 byte as
// the escape \ufffd (jsontext writes the character itself).
func (t *tokens) strValue(s string) {
	if t.err != nil {
		return
	}
	if !utf8.ValidString(s) {
		b, err := json.Marshal(s)
		if err == nil {
			err = t.enc.WriteValue(b)
		}
		t.err = err
		return
	}
	t.tok(jsontext.String(s))
}

func (t *tokens) int(n string, v int) {
	t.name(n)
	t.tok(jsontext.Int(int64(v)))
}

// errNonFinite is encoding/json's refusal of NaN and ±Inf.
var errNonFinite = errors.New("json: unsupported value: NaN or ±Inf")

func (t *tokens) float(n string, v float64) {
	t.name(n)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		if t.err == nil {
			t.err = errNonFinite
		}
		return
	}
	t.tok(jsontext.Float(v))
}

// floatPtr writes null for nil.
func (t *tokens) floatPtr(n string, v *float64) {
	if v == nil {
		t.name(n)
		t.tok(jsontext.Null)
		return
	}
	t.float(n, *v)
}

func (t *tokens) bool(n string, v bool) {
	t.name(n)
	t.tok(jsontext.Bool(v))
}

// strs writes null for a nil slice, as encoding/json.
func (t *tokens) strs(n string, v []string) {
	if v == nil {
		t.name(n)
		t.tok(jsontext.Null)
		return
	}
	t.name(n)
	t.tok(jsontext.BeginArray)
	for _, s := range v {
		t.strValue(s)
	}
	t.tok(jsontext.EndArray)
}

// value writes v through reflection, with the encoder's options (the
// caller's marshalers included): for the nested, seldom-filled members.
func (t *tokens) value(n string, v any) {
	t.name(n)
	if t.err == nil {
		t.err = jsonv2.MarshalEncode(t.enc, v)
	}
}

// MarshalJSONTo writes r as encoding/json would (see tokens).
func (r *MarketRowJSON) MarshalJSONTo(enc *jsontext.Encoder) error {
	t := tokens{enc: enc}
	t.begin()
	t.str("provider", r.Provider)
	t.str("instance_type", r.InstanceType)
	t.str("gpu", r.GPU)
	t.int("gpu_count", r.GPUCount)
	t.float("vram_gib", r.VRAMGiB)
	t.float("total_vram_gib", r.TotalVRAMGiB)
	t.int("vcpus", r.VCPUs)
	t.float("ram_gib", r.RAMGiB)
	t.float("vcpus_per_gpu", r.VCPUsPerGPU)
	t.float("ram_gib_per_gpu", r.RAMGiBPerGPU)
	t.str("interconnect", r.Interconnect)
	t.str("fabric", r.Fabric)
	t.str("arch", r.Arch)
	t.str("pricing", r.Pricing)
	t.float("usd_per_hour", r.USDPerHour)
	t.float("usd_per_gpu_hour", r.USDPerGPUHour)
	t.float("usd_per_gib_hour", r.USDPerGiBHour)
	t.floatPtr("on_demand_usd_per_hour", r.OnDemandUSDPerHour)
	t.floatPtr("spot_usd_per_hour", r.SpotUSDPerHour)
	t.str("region", r.Region)
	t.str("country", r.Country)
	t.str("city", r.City)
	t.str("continent", r.Continent)
	t.strs("regions", r.Regions)
	t.int("regions_offered", r.RegionsOffered)
	t.bool("marketplace", r.Marketplace)
	t.str("retired", r.Retired)
	t.bool("held", r.Held)
	t.str("source", r.Source)
	t.str("as_of", r.AsOf)
	t.str("origin", r.Origin)
	return t.end()
}

// MarshalJSONTo writes o as encoding/json would (see tokens); the
// decisions AddDecisions fills (spot, commitment) go through reflection.
func (o *OfferJSON) MarshalJSONTo(enc *jsontext.Encoder) error {
	t := tokens{enc: enc}
	t.begin()
	t.str("provider", o.Provider)
	t.str("instance_type", o.InstanceType)
	t.str("region", o.Region)
	t.str("gpu", o.GPU)
	t.int("gpu_count", o.GPUCount)
	t.int("gpus_per_instance", o.GPUsPerInstance)
	t.int("instances", o.Instances)
	t.str("strategy", o.Strategy)
	t.float("gpu_memory_gib", o.GPUMemoryGiB)
	t.float("vram_need_gib", o.VRAMNeedGiB)
	t.float("vram_headroom_pct", o.VRAMHeadroomPct)
	t.str("verdict", o.Verdict)
	if o.OOMChance != nil {
		t.float("oom_chance", *o.OOMChance)
	}
	if o.DeadlineMissChance != nil {
		t.float("deadline_miss_chance", *o.DeadlineMissChance)
	}
	t.str("pricing", o.Pricing)
	t.float("price_per_hour_usd", o.PricePerHourUSD)
	t.float("monthly_cost_usd", o.MonthlyCostUSD)
	t.floatPtr("job_hours", o.JobHours)
	t.floatPtr("job_cost_usd", o.JobCostUSD)
	t.strs("warnings", o.Warnings)
	t.str("source", o.Source)
	t.str("as_of", o.AsOf)
	t.str("origin", o.Origin)
	if o.CommitmentUSD != nil {
		t.float("commitment_usd", *o.CommitmentUSD)
	}
	if o.OnDemandJobUSD != nil {
		t.float("on_demand_job_usd", *o.OnDemandJobUSD)
	}
	if o.GPUsNeeded != 0 {
		t.int("gpus_needed", o.GPUsNeeded)
	}
	if o.BatchSize != 0 {
		t.int("batch_size", o.BatchSize)
	}
	if o.GradAccum != 0 {
		t.int("grad_accum", o.GradAccum)
	}
	if o.Spot != nil {
		t.value("spot", o.Spot)
	}
	if len(o.Commitment) != 0 {
		t.value("commitment", o.Commitment)
	}
	return t.end()
}

// StreamMarketJSON returns what m encodes to with NewMarketListJSON(res)
// as its MarketListJSON, but lays the rows out one at a time as they are
// written: 100,000 rows held at once as MarketRowJSON were 31 MB.
// Encode it with go-json-experiment/json (MarshalJSONTo); encoding/json
// does not know the method. TestStreamMarketJSONSame holds the bytes.
func StreamMarketJSON(m MarketJSON, res *market.Result) any {
	head := newMarketListHead(res)
	return marketStreamJSON{
		Pricing: head.Pricing, Sort: head.Sort, GroupBy: head.GroupBy, AllRegions: head.AllRegions,
		Rows: marketRows{res}, Groups: head.Groups,
		USDCNY: m.USDCNY, NeedsRate: m.NeedsRate, Prices: m.Prices,
	}
}

// marketStreamJSON is MarketJSON's members in its order (MarketListJSON's
// first, as encoding/json inlines an embedded struct).
type marketStreamJSON struct {
	Pricing    string            `json:"pricing"`
	Sort       string            `json:"sort"`
	GroupBy    string            `json:"group_by"`
	AllRegions bool              `json:"all_regions"`
	Rows       marketRows        `json:"rows"`
	Groups     []MarketGroupJSON `json:"groups"`
	USDCNY     *float64          `json:"usd_cny"`
	NeedsRate  []NeedsRateJSON   `json:"needs_rate"`
	Prices     ProvenanceJSON    `json:"prices"`
}

// marketRows writes res's rows as MarketListJSON.Rows.
type marketRows struct{ res *market.Result }

func (m marketRows) MarshalJSONTo(enc *jsontext.Encoder) error {
	if err := enc.WriteToken(jsontext.BeginArray); err != nil {
		return err
	}
	// The optional prices point at two variables for the whole list,
	// not two allocations per row (knownUSD): a row is written before
	// the next one is laid out.
	var od, spot float64
	for i := range m.res.Rows {
		r := &m.res.Rows[i]
		row := marketRowFields(r)
		od, spot = r.OnDemandUSD, r.SpotUSD
		if od > 0 {
			row.OnDemandUSDPerHour = &od
		}
		if spot > 0 {
			row.SpotUSDPerHour = &spot
		}
		if err := row.MarshalJSONTo(enc); err != nil {
			return err
		}
	}
	return enc.WriteToken(jsontext.EndArray)
}
