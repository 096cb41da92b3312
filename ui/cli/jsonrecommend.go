package cli

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

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
	o.member("estimate", j.Estimate, func(w *jsonOut) { w.estimateJSON(&j.Estimate) })
	if j.EstimateAsAsked != nil {
		o.member("estimate_as_asked", j.EstimateAsAsked, func(w *jsonOut) { w.estimateJSON(j.EstimateAsAsked) })
	}
	o.str("sort", j.Sort)
	if err := o.list("offers", j.Offers == nil && !j.Streamed(), func() error {
		return o.offers(j)
	}); err != nil {
		return err
	}
	o.int("offers_total", int64(j.OffersTotal))
	j.EndOffers()
	o.member("rejected", j.Rejected, func(w *jsonOut) { objsValue(w, j.Rejected, (*jsonOut).rejectionJSON) })
	if j.RiskyAhead != nil {
		o.member("risky_ahead", j.RiskyAhead, func(w *jsonOut) { w.riskyAheadJSON(j.RiskyAhead) })
	}
	if j.Assumptions != nil {
		o.member("spot_assumptions", j.Assumptions, func(w *jsonOut) { w.assumptionsJSON(j.Assumptions) })
	}
	if len(j.Pareto) != 0 {
		o.value("pareto", j.Pareto)
	}
	if j.Savings != nil {
		o.member("savings", j.Savings, func(w *jsonOut) { w.savingsJSON(j.Savings) })
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

// jsonOut appends an indented JSON document as encoding/json's
// Encoder.SetIndent("", "  ") lays it out, flushing to w as it grows.
type jsonOut struct {
	w      io.Writer
	b      []byte
	err    error
	indent []byte // the current members' indentation
	first  bool   // no member written yet in the open object or array

	// rowKeys, offerKeys and breakEvenKeys are the member starts
	// (memberKeys) of marketRow, offer and breakEven.
	rowKeys, offerKeys, breakEvenKeys keySet

	// plain are the last long strings strValue found plain (nothing to
	// escape), next the one to replace (plainStrings).
	plain [plainStrings]string
	next  int

	// flushes counts flush's writes, so that offer can tell its bytes are
	// all still in b; last is the offer it laid out last (offerReuse).
	flushes int
	last    offerReuse
}

// offerReuse is an offer laid out whole: its members (of), its bytes
// (b, from the '{' to before the country member) and where its region's
// value is in them. The next offer that differs only in its place
// (sameButPlace: most often the same type at the same price in another
// region, 677 of recommend's 1,200 offers for llama-3.1-8b QLoRA) copies
// them around its own region and lays out the place members alone.
type offerReuse struct {
	ok                     bool
	of                     report.OfferJSON
	b                      []byte
	regionStart, regionEnd int
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
	o.flushes++
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

// The members of an object, one call each (jsondoc.go's writers): name
// n, then the value as encoding/json writes the field's type; the …Omit
// forms leave the member out where omitempty does (0, "", false, nil, an
// empty list). floatPtr, strs and list are below, with their values.

func (o *jsonOut) str(n, s string) {
	o.name(n)
	o.strValue(s)
}

func (o *jsonOut) strOmit(n, s string) {
	if s != "" {
		o.str(n, s)
	}
}

func (o *jsonOut) int(n string, v int64) {
	o.name(n)
	o.b = strconv.AppendInt(o.b, v, 10)
}

func (o *jsonOut) intOmit(n string, v int64) {
	if v != 0 {
		o.int(n, v)
	}
}

func (o *jsonOut) float(n string, v float64) {
	o.name(n)
	o.floatValue(v)
}

func (o *jsonOut) floatOmit(n string, v float64) {
	if v != 0 {
		o.float(n, v)
	}
}

// floatPtrOmit is a *float64 with omitempty: left out for nil.
func (o *jsonOut) floatPtrOmit(n string, v *float64) {
	if v != nil {
		o.float(n, *v)
	}
}

func (o *jsonOut) bool(n string, v bool) {
	o.name(n)
	o.b = strconv.AppendBool(o.b, v)
}

func (o *jsonOut) boolOmit(n string, v bool) {
	if v {
		o.bool(n, v)
	}
}

// obj appends member n, the object write appends for *v (a struct
// field); objPtr appends null for a nil v, objOmit leaves the member
// out. They are functions, not methods, as methods take no type
// parameters; write is a method expression such as (*jsonOut).bandJSON.
func obj[T any](o *jsonOut, n string, v *T, write func(*jsonOut, *T)) {
	o.name(n)
	write(o, v)
}

func objPtr[T any](o *jsonOut, n string, v *T, write func(*jsonOut, *T)) {
	o.name(n)
	if v == nil {
		o.raw("null")
		return
	}
	write(o, v)
}

func objOmit[T any](o *jsonOut, n string, v *T, write func(*jsonOut, *T)) {
	if v != nil {
		obj(o, n, v, write)
	}
}

// objs appends member n, an array of the objects write appends for the
// elements of v, or null for a nil v, as encoding/json.
func objs[T any](o *jsonOut, n string, v []T, write func(*jsonOut, *T)) {
	o.name(n)
	objsValue(o, v, write)
}

func objsValue[T any](o *jsonOut, v []T, write func(*jsonOut, *T)) {
	if v == nil {
		o.raw("null")
		return
	}
	o.begin('[')
	for i := range v {
		o.elem()
		write(o, &v[i])
	}
	o.end(']')
}

// strValue appends s quoted as encoding/json does: HTML characters,
// U+2028 and U+2029 escaped, each invalid UTF-8 byte as \ufffd. The
// strings here (names, regions, messages) are plain; any other goes
// through encoding/json itself.
func (o *jsonOut) strValue(s string) {
	if !o.knownPlain(s) {
		seen := jsonClass(s)
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

// jsonClass is the union of s's bytes' jsonByte classes, read eight
// bytes at a time while they are ASCII (the bit tests of Anderson's "Bit
// Twiddling Hacks", "Determine if a word has a byte less than n" and
// "... equal to n": exact as a yes or no), byte by byte otherwise: the
// loop over each byte was ~10% of writing recommend's offers.
func jsonClass(s string) (seen byte) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for len(s) >= 8 {
		x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		if x&highs != 0 { // a non-ASCII byte: the table, for this word
			for i := range 8 {
				seen |= jsonByte[s[i]]
			}
		} else if (x-0x20*ones)&^x&highs != 0 || // a control (< 0x20)
			zeroByte(x^'"'*ones) || zeroByte(x^'\\'*ones) || zeroByte(x^'<'*ones) || zeroByte(x^'>'*ones) || zeroByte(x^'&'*ones) {
			seen |= jsonEscape
		}
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		seen |= jsonByte[s[i]]
	}
	return seen
}

// zeroByte reports whether a byte of x is zero.
func zeroByte(x uint64) bool {
	return (x-0x0101010101010101)&^x&0x8080808080808080 != 0
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

// floatValue appends v as encoding/json's float64 encoder does (its
// floatEncoder.encode: %f between 1e-6 and 1e21, else %e with the
// exponent's leading zero dropped); NaN and ±Inf are its error.
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

// strsOmit is a []string with omitempty: left out when empty.
func (o *jsonOut) strsOmit(n string, v []string) {
	if len(v) != 0 {
		o.strs(n, v)
	}
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

// member appends member n as write writes it (jsondoc.go), into a buffer
// of its own at this depth; should write fail (a figure that is not a
// finite number), v goes through the encoder instead (value), whose
// error the command reports as before.
func (o *jsonOut) member(n string, v any, write func(w *jsonOut)) {
	if o.err != nil {
		return
	}
	w := jsonOut{indent: slices.Clone(o.indent), plain: o.plain, next: o.next}
	write(&w)
	if w.err != nil {
		o.value(n, v)
		return
	}
	o.name(n)
	o.b = append(o.b, w.b...)
	o.plain, o.next = w.plain, w.next
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
// token encoder). Member starts come from offerNames' keys (memberKeys),
// one append each: ~1,100 offers of ~27 members are most of recommend's
// document, and each member started as five appends (elem, name).
func (o *jsonOut) offer(of *report.OfferJSON) {
	k := o.offerKeys.at(append(o.indent, "  "...), offerNames[:])
	if o.last.ok && sameButPlace(&o.last.of, of) {
		l := &o.last
		o.b = append(o.b, l.b[:l.regionStart]...)
		o.strValue(of.Region)
		o.b = append(o.b, l.b[l.regionEnd:]...)
		o.indent, o.first = append(o.indent, "  "...), false // as begin('{') and the members before
		o.offerPlace(k, of)
		return
	}
	start, flushes := len(o.b), o.flushes
	o.begin('{')
	o.strKey(k[0], of.Provider)
	o.strKey(k[1], of.InstanceType)
	o.key(k[2])
	regionStart := len(o.b) - start
	o.strValue(of.Region)
	regionEnd := len(o.b) - start
	o.strKey(k[3], of.GPU)
	o.intKey(k[4], int64(of.GPUCount))
	o.intKey(k[5], int64(of.GPUsPerInstance))
	o.intKey(k[6], int64(of.Instances))
	o.strKey(k[7], of.Strategy)
	o.floatKey(k[8], of.GPUMemoryGiB)
	o.floatKey(k[9], of.VRAMNeedGiB)
	o.floatKey(k[10], of.VRAMHeadroomPct)
	o.strKey(k[11], of.Verdict)
	o.floatKeyOmit(k[12], of.OOMChance)
	o.floatKeyOmit(k[13], of.DeadlineMissChance)
	o.strKey(k[14], of.Pricing)
	o.floatKey(k[15], of.PricePerHourUSD)
	o.floatKey(k[16], of.MonthlyCostUSD)
	o.floatPtrKey(k[17], of.JobHours)
	o.floatPtrKey(k[18], of.JobCostUSD)
	o.floatKeyOmit(k[19], of.JobHoursLow)
	o.floatKeyOmit(k[20], of.JobHoursHigh)
	o.floatKeyOmit(k[21], of.JobCostLowUSD)
	o.floatKeyOmit(k[22], of.JobCostHighUSD)
	o.strsKey(k[23], of.Warnings)
	o.strKey(k[24], of.Source)
	o.strKey(k[25], of.AsOf)
	o.strKey(k[26], of.Origin)
	o.floatKeyOmit(k[27], of.CommitmentUSD)
	o.floatKeyOmit(k[28], of.OnDemandJobUSD)
	o.intKeyOmit(k[29], int64(of.GPUsNeeded))
	o.intKeyOmit(k[30], int64(of.BatchSize))
	o.intKeyOmit(k[31], int64(of.GradAccum))
	if of.Spot != nil {
		o.value("spot", of.Spot)
	}
	if len(of.Commitment) != 0 {
		o.key(k[33])
		objsValue(o, of.Commitment, (*jsonOut).breakEven)
	}
	// Kept for the next offer only when no flush took bytes of this one
	// from b (a main goroutine's buffer past 64 KiB at a nested end).
	if l := &o.last; o.flushes == flushes && reuseOffers {
		l.ok, l.of, l.regionStart, l.regionEnd = true, *of, regionStart, regionEnd
		l.b = append(l.b[:0], o.b[start:]...)
	} else {
		l.ok = false
	}
	o.offerPlace(k, of)
}

// offerPlace ends an offer: its place members, which sameButPlace leaves
// out, price_age_days and vram_band_high_gib (added last, after them)
// and the '}'.
func (o *jsonOut) offerPlace(k []string, of *report.OfferJSON) {
	o.strKey(k[34], of.Country)
	o.strKey(k[35], of.City)
	o.strKey(k[36], of.Continent)
	if of.RegionsUnconfirmed {
		o.boolKey(k[37], true)
	}
	o.intKey(k[38], int64(of.PriceAgeDays))
	o.floatKeyOmit(k[39], of.VRAMBandHighGiB)
	o.end('}')
}

// reuseOffers turns offerReuse on; TestOfferReuseSame compares the
// bytes with it off.
var reuseOffers = true

// sameButPlace reports whether offers a and b lay out the same bytes but
// for their place: region, country, city, continent and
// regions_unconfirmed (offerPlace). An offer with spot figures is never
// the same (they are a nested object of many members, and per region).
// TestSameButPlaceFields changes each member of OfferJSON in turn.
func sameButPlace(a, b *report.OfferJSON) bool {
	return a.Spot == nil && b.Spot == nil &&
		a.Provider == b.Provider && a.InstanceType == b.InstanceType && a.GPU == b.GPU &&
		a.GPUCount == b.GPUCount && a.GPUsPerInstance == b.GPUsPerInstance && a.Instances == b.Instances &&
		a.Strategy == b.Strategy && a.GPUMemoryGiB == b.GPUMemoryGiB && a.VRAMNeedGiB == b.VRAMNeedGiB &&
		a.VRAMHeadroomPct == b.VRAMHeadroomPct && a.Verdict == b.Verdict &&
		samePtr(a.OOMChance, b.OOMChance) && samePtr(a.DeadlineMissChance, b.DeadlineMissChance) &&
		a.Pricing == b.Pricing && a.PricePerHourUSD == b.PricePerHourUSD && a.MonthlyCostUSD == b.MonthlyCostUSD &&
		samePtr(a.JobHours, b.JobHours) && samePtr(a.JobCostUSD, b.JobCostUSD) &&
		samePtr(a.JobHoursLow, b.JobHoursLow) && samePtr(a.JobHoursHigh, b.JobHoursHigh) &&
		samePtr(a.JobCostLowUSD, b.JobCostLowUSD) && samePtr(a.JobCostHighUSD, b.JobCostHighUSD) &&
		slices.Equal(a.Warnings, b.Warnings) && (a.Warnings == nil) == (b.Warnings == nil) &&
		a.Source == b.Source && a.AsOf == b.AsOf && a.Origin == b.Origin && a.PriceAgeDays == b.PriceAgeDays &&
		samePtr(a.VRAMBandHighGiB, b.VRAMBandHighGiB) &&
		samePtr(a.CommitmentUSD, b.CommitmentUSD) && samePtr(a.OnDemandJobUSD, b.OnDemandJobUSD) &&
		a.GPUsNeeded == b.GPUsNeeded && a.BatchSize == b.BatchSize && a.GradAccum == b.GradAccum &&
		slices.Equal(a.Commitment, b.Commitment) && (a.Commitment == nil) == (b.Commitment == nil)
}

// samePtr reports whether two optional figures write the same: both
// absent, or both present and equal (a NaN, equal to nothing, never is).
func samePtr(a, b *float64) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// offerNames are OfferJSON's members in order (offer writes them by
// index; spot, 32, goes through the encoder).
var offerNames = [...]string{
	"provider", "instance_type", "region", "gpu", "gpu_count", "gpus_per_instance", "instances",
	"strategy", "gpu_memory_gib", "vram_need_gib", "vram_headroom_pct", "verdict", "oom_chance",
	"deadline_miss_chance", "pricing", "price_per_hour_usd", "monthly_cost_usd", "job_hours",
	"job_cost_usd", "job_hours_low", "job_hours_high", "job_cost_low_usd", "job_cost_high_usd",
	"warnings", "source", "as_of", "origin", "commitment_usd", "on_demand_job_usd", "gpus_needed",
	"batch_size", "grad_accum", "spot", "commitment", "country", "city", "continent", "regions_unconfirmed",
	"price_age_days", "vram_band_high_gib",
}

// breakEven appends a reserved term's break-even (decide.BreakEven, its
// members in order), which ~140 of the embedded catalog's offers carry.
func (o *jsonOut) breakEven(b *decide.BreakEven) {
	o.begin('{')
	k := o.breakEvenKeys.at(o.indent, breakEvenNames[:])
	o.strKey(k[0], string(b.Term))
	o.floatKey(k[1], b.USDPerHour)
	o.floatKey(k[2], b.MonthlyUSD)
	o.floatKey(k[3], b.TermUSD)
	o.floatKey(k[4], b.VsOnDemandHoursPerMonth)
	o.floatKey(k[5], b.VsSpotHoursPerMonth)
	o.floatKey(k[6], b.UsedHoursPerMonth)
	o.floatKey(k[7], b.OnDemandMonthlyUSD)
	o.floatKey(k[8], b.SpotMonthlyUSD)
	o.boolKey(k[9], b.BeatsOnDemand)
	o.boolKey(k[10], b.BeatsSpot)
	o.floatKey(k[11], b.EffectiveUSDPerUsedHour)
	o.end('}')
}

// breakEvenNames are decide.BreakEven's members in order.
var breakEvenNames = [...]string{
	"term", "usd_per_hour", "monthly_usd", "term_usd", "break_even_vs_on_demand_hours_per_month",
	"break_even_vs_spot_hours_per_month", "used_hours_per_month", "on_demand_monthly_usd",
	"spot_monthly_usd", "beats_on_demand", "beats_spot", "effective_usd_per_used_hour",
}

// The members of an object whose starts are memberKeys (offer,
// breakEven, marketRow: the long lists), one call each: key k, then the
// value as the name-started forms above write it; the …Omit forms leave
// the member out where omitempty does.

func (o *jsonOut) strKey(k, s string) {
	o.key(k)
	o.strValue(s)
}

// intKey is key and strconv.AppendInt in one expression: so it is
// inlined (Go's inlining budget), as o.key(k) and an AppendInt are not.
func (o *jsonOut) intKey(k string, v int64) {
	o.b = strconv.AppendInt(append(o.b, k...), v, 10)
	o.first = false
}

// intKeyOmit is an int with omitempty: left out for 0.
func (o *jsonOut) intKeyOmit(k string, v int64) {
	if v != 0 {
		o.intKey(k, v)
	}
}

func (o *jsonOut) floatKey(k string, v float64) {
	o.key(k)
	o.floatValue(v)
}

// floatKeyOmit is a *float64 with omitempty: left out for nil (key and
// floatValue, not floatKey, which would take it over the inlining budget).
func (o *jsonOut) floatKeyOmit(k string, v *float64) {
	if v != nil {
		o.key(k)
		o.floatValue(*v)
	}
}

// floatPtrKey appends null for nil.
func (o *jsonOut) floatPtrKey(k string, v *float64) {
	o.key(k)
	o.floatPtrValue(v)
}

func (o *jsonOut) boolKey(k string, v bool) {
	o.key(k)
	o.b = strconv.AppendBool(o.b, v)
}

// strsKey appends null for a nil slice.
func (o *jsonOut) strsKey(k string, v []string) {
	o.key(k)
	o.strsValue(v)
}
