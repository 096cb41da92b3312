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

// The offers a document other than recommend's may hold by the thousand
// (OfferJSON) write their fields as tokens (MarshalJSONTo, called by the
// streaming encoder of go-json-experiment/json) instead of going through
// reflection: per field, reflection looks the type up among the caller's
// marshalers and walks the struct's field table, which was a third of
// `recommend --json`'s time before ui/cli appended its offers itself. The bytes are
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
	if o.JobHoursLow != nil { // the four together (model.Offer.JobBand)
		t.float("job_hours_low", *o.JobHoursLow)
		t.float("job_hours_high", *o.JobHoursHigh)
		t.float("job_cost_low_usd", *o.JobCostLowUSD)
		t.float("job_cost_high_usd", *o.JobCostHighUSD)
	}
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
	t.str("country", o.Country) // last, as OfferJSON has them
	t.str("city", o.City)
	t.str("continent", o.Continent)
	if o.RegionsUnconfirmed {
		t.name("regions_unconfirmed")
		t.tok(jsontext.True)
	}
	t.int("price_age_days", o.PriceAgeDays)
	if o.VRAMBandHighGiB != nil {
		t.float("vram_band_high_gib", *o.VRAMBandHighGiB)
	}
	return t.end()
}

// MarketStreamJSON is gpuplan offers --json with its rows laid out one
// at a time as they are written (EachRow): 100,000 rows held at once as
// MarketRowJSON were 31 MB. The CLI appends it itself (ui/cli's
// writeMarketJSON); it prints what its MarketJSON would, with
// NewMarketListJSON(res)'s rows when it streams a result.
type MarketStreamJSON struct {
	MarketJSON // its Rows are written when res is nil
	res        *market.Result
}

// StreamMarketJSON returns what m encodes to with NewMarketListJSON(res)
// as its MarketListJSON, its rows laid out as they are written.
// TestStreamMarketJSONSame holds the bytes.
func StreamMarketJSON(m MarketJSON, res *market.Result) MarketStreamJSON {
	m.MarketListJSON = newMarketListHead(res)
	return MarketStreamJSON{MarketJSON: m, res: res}
}

// Streamed reports whether the rows come from a result (never null).
func (s *MarketStreamJSON) Streamed() bool { return s.res != nil }

// EachRow calls fn with each row in order, stopping at its first error.
// The row is fn's only until it returns: it is reused for the next one.
func (s *MarketStreamJSON) EachRow(fn func(*MarketRowJSON) error) error {
	return s.EachRowIn(0, s.RowCount(), fn)
}

// RowCount is how many rows EachRow walks.
func (s *MarketStreamJSON) RowCount() int {
	if s.res == nil {
		return len(s.Rows)
	}
	return len(s.res.Rows)
}

// EachRowIn is EachRow over rows [from, to) of its list; calls may run
// on several goroutines at once.
func (s *MarketStreamJSON) EachRowIn(from, to int, fn func(*MarketRowJSON) error) error {
	if s.res == nil {
		return eachOf(s.Rows[from:to], fn)
	}
	// The optional prices point at two variables for the whole list,
	// not two allocations per row (knownUSD).
	var od, spot float64
	var row MarketRowJSON
	for i := from; i < to; i++ {
		r := &s.res.Rows[i]
		row = marketRowFields(r)
		row.PriceAgeDays = RowPriceAgeDays(r, s.CatalogAsOf)
		od, spot = r.OnDemandUSD, r.SpotUSD
		if od > 0 {
			row.OnDemandUSDPerHour = &od
		}
		if spot > 0 {
			row.SpotUSDPerHour = &spot
		}
		if err := fn(&row); err != nil {
			return err
		}
	}
	return nil
}
