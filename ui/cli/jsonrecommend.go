package cli

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/report"
)

// writeRecommendJSON is writeJSONStream for recommend's document (and
// its probe_corrections twin): the same bytes as writeJSON, but the offer
// list, ~900 objects and ~95% of the ~1 MB, is appended straight to the
// buffer. Through jsontext's Encoder every member name and value was a
// token passed through its state machine and re-validated, which was 40%
// of `recommend --json`'s CPU time. The members of the document other
// than the offers (estimate, rejected, decisions) and the seldom-set
// member of an offer (spot) still go through
// writeJSONStream's encoder. TestRecommendJSONWriterSame holds every
// member of RecommendJSON and OfferJSON to encoding/json's bytes.
func writeRecommendJSON(w io.Writer, j *report.RecommendJSON, probes []report.ProbeCorrectionJSON, withProbes bool) error {
	// Written in 64 KB pieces straight from o's buffer: a bufio.Writer
	// on top would be 64 KB more of fresh pages and a copy.
	o := jsonOut{w: w, b: make([]byte, 0, 72<<10)}
	o.begin('{')
	o.value("estimate", j.Estimate)
	o.str("sort", j.Sort)
	if err := o.list("offers", j.Offers == nil && !j.Streamed(), func() error {
		return o.offers(j)
	}); err != nil {
		return err
	}
	j.EndOffers()
	o.value("rejected", j.Rejected)
	if j.RiskyAhead != nil {
		o.value("risky_ahead", j.RiskyAhead)
	}
	if j.Assumptions != nil {
		o.value("spot_assumptions", j.Assumptions)
	}
	if len(j.Pareto) != 0 {
		o.value("pareto", j.Pareto)
	}
	if j.Savings != nil {
		o.value("savings", j.Savings)
	}
	if len(j.Answers) != 0 {
		o.value("answers", j.Answers)
	}
	if len(j.WouldFit) != 0 {
		o.value("would_fit", j.WouldFit)
	}
	if withProbes {
		o.value("probe_corrections", probes)
	}
	o.end('}')
	o.raw("\n")
	o.flush()
	return o.err
}

// warmJSONTypes marshals, to nothing, a zero value of each type of
// recommend's document that writeRecommendJSON leaves to the encoder (the
// workload's estimate; the GPU fit and time members it may lack; the
// near misses, spot assumptions, savings), so that go-json-experiment
// builds their encoders (cached per type) on the machine's other core
// while this one loads the catalog and ranks: EstimateJSON's type tree
// took ~0.45 ms on first use. A zero value reaches every member but
// those behind a pointer or in a slice, which wait for a value that has
// them (warmJSON). Started as recommend --json starts, before the
// catalog is loaded (and not after the workload's estimate, as before),
// its work is done before the ranking's second goroutine (model's
// splitScan) needs the core. The bytes written later do not depend on it.
func warmJSONTypes() {
	for _, v := range []any{report.EstimateJSON{}, report.FitJSON{}, report.TimeJSON{}, []report.RejectionJSON{{}},
		report.AssumptionsJSON{}, report.SavingsJSON{Changes: []advice.Saving{{}}}} {
		_ = jsonv2.MarshalWrite(io.Discard, v, jsonIndentOpts)
	}
}

// warmJSON marshals est (the workload's estimate as NewRecommendJSON
// builds it) to nothing, for the encoders of its members that a zero
// value does not reach (warmJSONTypes).
func warmJSON(est report.EstimateJSON) {
	_ = jsonv2.MarshalWrite(io.Discard, est, jsonIndentOpts)
}

// jsonOut appends an indented JSON document as encoding/json's
// Encoder.SetIndent("", "  ") lays it out, flushing to w as it grows.
type jsonOut struct {
	w      io.Writer
	b      []byte
	err    error
	indent []byte // the current members' indentation
	first  bool   // no member written yet in the open object or array

	// rowKeys are marketRow's member starts (memberKeys) for indentation
	// of rowKeysIndent bytes.
	rowKeys       []string
	rowKeysIndent int

	// plain are the last long strings strValue found plain (nothing to
	// escape), next the one to replace (plainStrings).
	plain [plainStrings]string
	next  int
}

// plainStrings is how many long plain strings a jsonOut remembers, and
// plainMin the length from which it does. An offer's source (~260 bytes
// on average: "skypilot-org/skypilot-catalog catalogs/v8/aws/vms.csv @
// …") is a quarter of recommend's document, ~80 distinct ones written
// ~1,100 times; a string equal to one remembered needs no byte-by-byte
// look (strValue's was ~4% of recommend --json's CPU time by perf
// record, issue 32). Equal strings compare cheaply (the same pointer
// most often, else one memory compare), and offers sorted by price come
// in runs of one provider's, so a few entries suffice.
const (
	plainStrings = 8
	plainMin     = 48
)

func (o *jsonOut) raw(s string) { o.b = append(o.b, s...) }

func (o *jsonOut) flush() {
	if o.err == nil {
		_, o.err = o.w.Write(o.b)
	}
	o.b = o.b[:0]
}

// begin opens an object or array ('{' or '[').
func (o *jsonOut) begin(c byte) {
	o.b = append(o.b, c)
	o.indent = append(o.indent, "  "...)
	o.first = true
}

// end closes it: "{}" and "[]" when nothing was written in between.
func (o *jsonOut) end(c byte) {
	o.indent = o.indent[:len(o.indent)-2]
	if !o.first {
		o.b = append(o.b, '\n')
		o.b = append(o.b, o.indent...)
	}
	o.b = append(o.b, c)
	o.first = false
	if len(o.b) >= 64<<10 && o.w != nil { // a block laid out aside has no writer (offers)
		o.flush()
	}
}

// elem starts an array element.
func (o *jsonOut) elem() {
	if o.first {
		o.b = append(o.b, '\n')
		o.first = false
	} else {
		o.b = append(o.b, ",\n"...)
	}
	o.b = append(o.b, o.indent...)
}

// name starts a member: n is an ASCII constant that needs no escaping.
func (o *jsonOut) name(n string) {
	o.elem()
	o.b = append(o.b, '"')
	o.b = append(o.b, n...)
	o.b = append(o.b, `": `...)
}

func (o *jsonOut) str(n, s string) {
	o.name(n)
	o.strValue(s)
}

// strValue appends s quoted as encoding/json does: HTML characters,
// U+2028 and U+2029 escaped, each invalid UTF-8 byte as \ufffd. The
// strings here (names, regions, messages) are plain; any other goes
// through encoding/json itself.
func (o *jsonOut) strValue(s string) {
	if !o.knownPlain(s) {
		var seen byte
		for i := 0; i < len(s); i++ {
			seen |= jsonByte[s[i]]
		}
		if seen&jsonEscape != 0 || seen&jsonNonASCII != 0 && (!utf8.ValidString(s) || strings.Contains(s, "\u2028") || strings.Contains(s, "\u2029")) {
			o.quoteSlow(s)
			return
		}
		if len(s) >= plainMin {
			o.plain[o.next] = s
			o.next = (o.next + 1) % plainStrings
		}
	}
	o.b = append(o.b, '"')
	o.b = append(o.b, s...)
	o.b = append(o.b, '"')
}

// knownPlain reports whether s is one of the long strings strValue found
// plain lately: the same bytes, so nothing to escape either.
func (o *jsonOut) knownPlain(s string) bool {
	if len(s) < plainMin {
		return false
	}
	for i := range o.plain {
		if len(o.plain[i]) == len(s) && o.plain[i] == s {
			return true
		}
	}
	return false
}

// jsonByte classes the bytes of a string for strValue: those
// encoding/json escapes (controls, quote, backslash, HTML's <, > and &)
// and the start of non-ASCII characters, which it escapes only when
// invalid or U+2028/U+2029.
var jsonByte = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = jsonNonASCII
		case c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&':
			t[c] = jsonEscape
		}
	}
	return t
}()

const (
	jsonEscape   = 1
	jsonNonASCII = 2
)

func (o *jsonOut) quoteSlow(s string) {
	q, err := json.Marshal(s)
	if err != nil && o.err == nil {
		o.err = err
	}
	o.b = append(o.b, q...)
}

func (o *jsonOut) int(n string, v int) {
	o.name(n)
	o.b = strconv.AppendInt(o.b, int64(v), 10)
}

// float appends v as encoding/json's float64 encoder does (its
// floatEncoder.encode: %f between 1e-6 and 1e21, else %e with the
// exponent's leading zero dropped); NaN and ±Inf are its error.
func (o *jsonOut) float(n string, v float64) {
	o.name(n)
	o.floatValue(v)
}

// floatValue appends v as encoding/json writes a float64.
func (o *jsonOut) floatValue(v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		if o.err == nil {
			o.err = errNonFinite
		}
		return
	}
	if b, ok := appendDecimal(o.b, v); ok {
		o.b = b
		return
	}
	format := byte('f')
	if abs := math.Abs(v); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	o.b = strconv.AppendFloat(o.b, v, format, -1, 64)
	if format == 'e' {
		if k := len(o.b); k >= 4 && o.b[k-4] == 'e' && o.b[k-3] == '-' && o.b[k-2] == '0' {
			o.b[k-2] = o.b[k-1]
			o.b = o.b[:k-1]
		}
	}
}

// pow10 are the scales appendDecimal tries: up to 6 decimals, the
// market's derived figures (round6).
var pow10 = [...]float64{1, 10, 100, 1e3, 1e4, 1e5, 1e6}

// appendDecimal appends v in the shortest decimal form that reads back
// as v, as strconv's 'f' with precision -1 does, when v is +0 or has at
// most 6 decimals and 15 significant digits (the rounded prices, GiB and
// percentages of an offer or a market row); ok is false for any other v, which the
// caller formats with strconv. Why the result is strconv's: n/10^d is
// the nearest float64 to the decimal n·10^-d (IEEE division rounds
// correctly), which therefore reads back as v; and two decimals of at
// most 15 significant digits never read back as the same float64, so
// no shorter decimal, nor another of the same length, does. Trailing
// zeros are trimmed. TestAppendDecimal and FuzzAppendDecimal hold it to
// strconv.
func appendDecimal(b []byte, v float64) ([]byte, bool) {
	if v == 0 && !math.Signbit(v) {
		return append(b, '0'), true
	}
	if !(v > 0 && v < 1e11) {
		return b, false
	}
	for d, p := range pow10 {
		s := v * p
		if s >= 1e15 || s != math.Trunc(s) || s/p != v {
			continue
		}
		var buf [32]byte
		const lead = 8 // room for the leading zeros of a fraction (d ≤ 6)
		digits := strconv.AppendUint(buf[lead:lead], uint64(s), 10)
		if d == 0 {
			return append(b, digits...), true
		}
		i := lead
		for lead+len(digits)-i <= d { // 5 at d = 2 reads 0.05
			i--
			buf[i] = '0'
		}
		digits = buf[i : lead+len(digits)]
		point := len(digits) - d
		frac := digits[point:]
		for len(frac) > 0 && frac[len(frac)-1] == '0' {
			frac = frac[:len(frac)-1]
		}
		b = append(b, digits[:point]...)
		if len(frac) > 0 {
			b = append(b, '.')
			b = append(b, frac...)
		}
		return b, true
	}
	return b, false
}

// errNonFinite is encoding/json's refusal of NaN and ±Inf.
var errNonFinite = errors.New("json: unsupported value: NaN or ±Inf")

// floatPtr appends null for nil.
func (o *jsonOut) floatPtr(n string, v *float64) {
	o.name(n)
	o.floatPtrValue(v)
}

func (o *jsonOut) floatPtrValue(v *float64) {
	if v == nil {
		o.raw("null")
		return
	}
	o.floatValue(*v)
}

// floatOmit appends member n unless v is nil (a *float64 with omitempty).
func (o *jsonOut) floatOmit(n string, v *float64) {
	if v != nil {
		o.float(n, *v)
	}
}

// intOmit appends member n unless v is 0 (an int with omitempty).
func (o *jsonOut) intOmit(n string, v int) {
	if v != 0 {
		o.int(n, v)
	}
}

// list appends member n, an array whose elements each appends (each
// starting with elem), or null; its error is each's.
func (o *jsonOut) list(n string, null bool, each func() error) error {
	o.name(n)
	if null {
		o.raw("null")
		return nil
	}
	o.begin('[')
	if err := each(); err != nil {
		return err
	}
	o.end(']')
	return nil
}

// strs appends null for a nil slice, as encoding/json.
func (o *jsonOut) strs(n string, v []string) {
	o.name(n)
	o.strsValue(v)
}

func (o *jsonOut) strsValue(v []string) {
	if v == nil {
		o.raw("null")
		return
	}
	o.begin('[')
	for _, s := range v {
		o.elem()
		o.strValue(s)
	}
	o.end(']')
}

// value appends v through writeJSONStream's encoder, indented to this
// depth.
func (o *jsonOut) value(n string, v any) {
	o.name(n)
	if o.err != nil {
		return
	}
	b, err := jsonv2.Marshal(v, jsonIndentOpts, jsontext.WithIndentPrefix(string(o.indent)))
	if err != nil {
		o.err = err
		return
	}
	o.b = append(o.b, b...)
}

// offer appends one offer as an object, its members in OfferJSON's order
// with its omitempty (report.OfferJSON.MarshalJSONTo is the same for the
// token encoder).
func (o *jsonOut) offer(of *report.OfferJSON) {
	o.begin('{')
	o.str("provider", of.Provider)
	o.str("instance_type", of.InstanceType)
	o.str("region", of.Region)
	o.str("gpu", of.GPU)
	o.int("gpu_count", of.GPUCount)
	o.int("gpus_per_instance", of.GPUsPerInstance)
	o.int("instances", of.Instances)
	o.str("strategy", of.Strategy)
	o.float("gpu_memory_gib", of.GPUMemoryGiB)
	o.float("vram_need_gib", of.VRAMNeedGiB)
	o.float("vram_headroom_pct", of.VRAMHeadroomPct)
	o.str("verdict", of.Verdict)
	o.floatOmit("oom_chance", of.OOMChance)
	o.floatOmit("deadline_miss_chance", of.DeadlineMissChance)
	o.str("pricing", of.Pricing)
	o.float("price_per_hour_usd", of.PricePerHourUSD)
	o.float("monthly_cost_usd", of.MonthlyCostUSD)
	o.floatPtr("job_hours", of.JobHours)
	o.floatPtr("job_cost_usd", of.JobCostUSD)
	o.floatOmit("job_hours_low", of.JobHoursLow)
	o.floatOmit("job_hours_high", of.JobHoursHigh)
	o.floatOmit("job_cost_low_usd", of.JobCostLowUSD)
	o.floatOmit("job_cost_high_usd", of.JobCostHighUSD)
	o.strs("warnings", of.Warnings)
	o.str("source", of.Source)
	o.str("as_of", of.AsOf)
	o.str("origin", of.Origin)
	o.floatOmit("commitment_usd", of.CommitmentUSD)
	o.floatOmit("on_demand_job_usd", of.OnDemandJobUSD)
	o.intOmit("gpus_needed", of.GPUsNeeded)
	o.intOmit("batch_size", of.BatchSize)
	o.intOmit("grad_accum", of.GradAccum)
	if of.Spot != nil {
		o.value("spot", of.Spot)
	}
	if len(of.Commitment) != 0 {
		o.name("commitment")
		o.begin('[')
		for i := range of.Commitment {
			o.elem()
			o.breakEven(&of.Commitment[i])
		}
		o.end(']')
	}
	o.end('}')
}

// breakEven appends a reserved term's break-even (decide.BreakEven, its
// members in order), which ~140 of the embedded catalog's offers carry.
func (o *jsonOut) breakEven(b *decide.BreakEven) {
	o.begin('{')
	o.str("term", string(b.Term))
	o.float("usd_per_hour", b.USDPerHour)
	o.float("monthly_usd", b.MonthlyUSD)
	o.float("term_usd", b.TermUSD)
	o.float("break_even_vs_on_demand_hours_per_month", b.VsOnDemandHoursPerMonth)
	o.float("break_even_vs_spot_hours_per_month", b.VsSpotHoursPerMonth)
	o.float("used_hours_per_month", b.UsedHoursPerMonth)
	o.float("on_demand_monthly_usd", b.OnDemandMonthlyUSD)
	o.float("spot_monthly_usd", b.SpotMonthlyUSD)
	o.bool("beats_on_demand", b.BeatsOnDemand)
	o.bool("beats_spot", b.BeatsSpot)
	o.float("effective_usd_per_used_hour", b.EffectiveUSDPerUsedHour)
	o.end('}')
}

func (o *jsonOut) bool(n string, v bool) {
	o.name(n)
	o.b = strconv.AppendBool(o.b, v)
}
