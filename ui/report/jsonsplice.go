package report

import (
	"errors"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuplan/gpuplan/model/decide"
)

// RowSplicer lets the long row lists of a document (offers --json's
// market rows, recommend --json's offers) skip jsontext's per-token work:
// even written as tokens (see tokens) a row cost ~60 state-machine steps,
// most of `offers --json`'s time over 100,000 rows. Encode the document
// with go-json-experiment/json into the splicer (it is the io.Writer) and
// with Marshalers among the options: the lists then write an empty array
// to the encoder and the splicer writes their rows, laid out by hand as
// the encoder would lay them out, between its brackets as the bytes pass
// through. The bytes are the encoder's (TestStreamMarketJSONSame,
// TestWriteJSONStreamSame); a list goes through the tokens when the
// options are not encoding/json's with a multi-line indent.
type RowSplicer struct {
	w       io.Writer
	off     int64 // bytes passed to w so far
	pending []splice
	err     error // a splice's first error
}

type splice struct {
	at    int64 // output offset of the byte after the list's '['
	write func(io.Writer) error
}

// NewRowSplicer returns a splicer writing to w.
func NewRowSplicer(w io.Writer) *RowSplicer { return &RowSplicer{w: w} }

// Err is the first error a list's rows met (a NaN or infinite figure),
// which the encoder reports as a write error.
func (s *RowSplicer) Err() error { return s.err }

// Write passes p to the underlying writer, writing each pending list's
// rows where its offset falls.
func (s *RowSplicer) Write(p []byte) (int, error) {
	n := 0
	for len(s.pending) > 0 && s.pending[0].at <= s.off+int64(len(p)) {
		k := int(s.pending[0].at - s.off)
		if err := s.pass(p[:k]); err != nil {
			return n, err
		}
		n, p = n+k, p[k:]
		if err := s.run(); err != nil {
			return n, err
		}
	}
	if err := s.pass(p); err != nil {
		return n, err
	}
	return n + len(p), nil
}

func (s *RowSplicer) pass(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	m, err := s.w.Write(p)
	s.off += int64(m)
	return err
}

// run writes the first pending list's rows.
func (s *RowSplicer) run() error {
	sp := s.pending[0]
	s.pending = s.pending[1:]
	if err := sp.write(s.w); err != nil {
		if s.err == nil {
			s.err = err
		}
		return err
	}
	return nil
}

// Marshalers are the caller marshalers that splice the row lists.
func (s *RowSplicer) Marshalers() *jsonv2.Marshalers {
	return jsonv2.JoinMarshalers(
		jsonv2.MarshalToFunc(func(enc *jsontext.Encoder, m marketRows) error {
			rows := m.res.Rows
			return s.list(enc, len(rows), m.MarshalJSONTo, func(b []byte, i int, l *rowLayout) ([]byte, error) {
				r := marketRowFields(&rows[i])
				od, spot := rows[i].OnDemandUSD, rows[i].SpotUSD // knownUSD's, on the stack
				if od > 0 {
					r.OnDemandUSDPerHour = &od
				}
				if spot > 0 {
					r.SpotUSDPerHour = &spot
				}
				return r.appendJSON(b, l)
			})
		}),
		jsonv2.MarshalToFunc(func(enc *jsontext.Encoder, offers []OfferJSON) error {
			if offers == nil {
				return errors.ErrUnsupported // null, the default
			}
			opts := enc.Options()
			return s.list(enc, len(offers), nil, func(b []byte, i int, l *rowLayout) ([]byte, error) {
				return offers[i].appendJSON(b, l, opts)
			})
		}),
	)
}

// list writes an array of n rows: an empty one to enc and a splice that
// lays each row out with row. Without a multi-line indent and
// encoding/json's escaping and omitempty, or without rows, it writes them as tokens
// (tokens, nil: the default arshaler).
func (s *RowSplicer) list(enc *jsontext.Encoder, n int, tokens func(*jsontext.Encoder) error,
	row func(b []byte, i int, l *rowLayout) ([]byte, error)) error {
	opts := enc.Options()
	indent, ok1 := jsonv2.GetOption(opts, jsontext.WithIndent)
	prefix, _ := jsonv2.GetOption(opts, jsontext.WithIndentPrefix)
	multi, _ := jsonv2.GetOption(opts, jsontext.Multiline)
	html, _ := jsonv2.GetOption(opts, jsontext.EscapeForHTML)
	js, _ := jsonv2.GetOption(opts, jsontext.EscapeForJS)
	// Legacy omitempty: a member's emptiness is decided before it is
	// written, never by the bytes (the empty array the encoder sees).
	legacy, _ := jsonv2.GetOption(opts, jsonv1.OmitEmptyWithLegacySemantics)
	if n == 0 || !ok1 || !multi || !html || !js || !legacy || indent == "" {
		if tokens == nil {
			return errors.ErrUnsupported
		}
		return tokens(enc)
	}
	if err := enc.WriteToken(jsontext.BeginArray); err != nil {
		return err
	}
	at, depth := enc.OutputOffset(), enc.StackDepth()
	l := newRowLayout(prefix, indent, depth)
	write := func(w io.Writer) error {
		b := make([]byte, 0, 64<<10)
		var err error
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, l.open...)
			if b, err = row(b, i, l); err != nil {
				return err
			}
			if len(b) > 48<<10 {
				if _, err := w.Write(b); err != nil {
					return err
				}
				b = b[:0]
			}
		}
		b = append(b, l.close...)
		_, err = w.Write(b)
		return err
	}
	if at <= s.off { // the '[' has gone through already (jsontext v1.27 never flushes there)
		if err := write(s.w); err != nil {
			if s.err == nil {
				s.err = err
			}
			return err
		}
	} else {
		s.pending = append(s.pending, splice{at, write})
	}
	return enc.WriteToken(jsontext.EndArray)
}

// rowLayout is the whitespace of one list's rows: open before a row's
// '{', member before each member name (and a member array's ']'), elem
// before a member array's elements, end before its '}', close before the
// list's ']'; nested is the indent prefix of a member's nested lines.
type rowLayout struct {
	open, member, elem, end, close string
	nested                         string

	valueOpts jsonv2.Options // rowBuf.value's

	prefix, indent string
	depth          int
	next           *rowLayout // deeper's
}

// deeper is the layout of objects that are elements of a row member's
// array (two levels deeper), made once.
func (l *rowLayout) deeper() *rowLayout {
	if l.next == nil {
		l.next = newRowLayout(l.prefix, l.indent, l.depth+2)
	}
	return l.next
}

func newRowLayout(prefix, indent string, depth int) *rowLayout {
	line := func(n int) string { return "\n" + prefix + strings.Repeat(indent, n) }
	return &rowLayout{
		open: line(depth), member: line(depth + 1), elem: line(depth + 2), end: line(depth), close: line(depth - 1),
		nested: prefix + strings.Repeat(indent, depth+1),
		prefix: prefix, indent: indent, depth: depth,
	}
}

// rowBuf appends one object's members as encoding/json writes them,
// keeping the first error.
type rowBuf struct {
	b     []byte
	l     *rowLayout
	first bool
	err   error
}

func (r *rowBuf) name(n string) {
	if !r.first {
		r.b = append(r.b, ',')
	}
	r.first = false
	r.b = append(r.b, r.l.member...)
	r.b = append(r.b, '"')
	r.b = append(r.b, n...) // the names are ASCII constants
	r.b = append(r.b, '"', ':', ' ')
}

func (r *rowBuf) str(n, s string) {
	r.name(n)
	r.b = appendJSONString(r.b, s)
}

func (r *rowBuf) int(n string, v int) {
	r.name(n)
	r.b = strconv.AppendInt(r.b, int64(v), 10)
}

func (r *rowBuf) float(n string, v float64) {
	r.name(n)
	r.floatValue(v)
}

func (r *rowBuf) floatValue(v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		if r.err == nil {
			r.err = errNonFinite
		}
		return
	}
	r.b = appendJSONFloat(r.b, v)
}

func (r *rowBuf) floatPtr(n string, v *float64) {
	if v == nil {
		r.name(n)
		r.b = append(r.b, "null"...)
		return
	}
	r.float(n, *v)
}

func (r *rowBuf) bool(n string, v bool) {
	r.name(n)
	r.b = strconv.AppendBool(r.b, v)
}

func (r *rowBuf) strs(n string, v []string) {
	r.name(n)
	switch {
	case v == nil:
		r.b = append(r.b, "null"...)
	case len(v) == 0:
		r.b = append(r.b, '[', ']')
	default:
		r.b = append(r.b, '[')
		for i, s := range v {
			if i > 0 {
				r.b = append(r.b, ',')
			}
			r.b = append(r.b, r.l.elem...)
			r.b = appendJSONString(r.b, s)
		}
		r.b = append(r.b, r.l.member...)
		r.b = append(r.b, ']')
	}
}

func (r *rowBuf) done() ([]byte, error) {
	r.b = append(r.b, r.l.end...)
	r.b = append(r.b, '}')
	return r.b, r.err
}

func newRowBuf(b []byte, l *rowLayout) rowBuf {
	return rowBuf{b: append(b, '{'), l: l, first: true}
}

// appendJSON appends r's object from its '{' as MarshalJSONTo writes it.
func (r *MarketRowJSON) appendJSON(b []byte, l *rowLayout) ([]byte, error) {
	t := newRowBuf(b, l)
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
	t.str("source", r.Source)
	t.str("as_of", r.AsOf)
	t.str("origin", r.Origin)
	return t.done()
}

// appendJSON appends o's object from its '{' as MarshalJSONTo writes it;
// the decisions (spot, commitment) are marshaled with opts, indented to
// the member's depth.
func (o *OfferJSON) appendJSON(b []byte, l *rowLayout, opts jsonv2.Options) ([]byte, error) {
	t := newRowBuf(b, l)
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
		t.value("spot", o.Spot, opts)
	}
	if len(o.Commitment) != 0 {
		if breakEvenFields {
			t.breakEvens("commitment", o.Commitment)
		} else {
			t.value("commitment", o.Commitment, opts)
		}
	}
	return t.done()
}

// breakEvenNames are decide.BreakEven's JSON names in order, as
// breakEvens writes them; breakEvenFields is false when the type has
// changed since (its members then go through reflection).
var (
	breakEvenNames = []string{"term", "usd_per_hour", "monthly_usd", "term_usd", "break_even_vs_on_demand_hours_per_month",
		"break_even_vs_spot_hours_per_month", "used_hours_per_month", "on_demand_monthly_usd", "spot_monthly_usd",
		"beats_on_demand", "beats_spot", "effective_usd_per_used_hour"}
	breakEvenFields = func() bool {
		t := reflect.TypeFor[decide.BreakEven]()
		if t.NumField() != len(breakEvenNames) {
			return false
		}
		for i, n := range breakEvenNames {
			if t.Field(i).Tag.Get("json") != n {
				return false
			}
		}
		return true
	}()
)

// breakEvens writes an offer's commitment terms (a non-empty list) as
// encoding/json does, one level deeper than the row's members.
func (r *rowBuf) breakEvens(n string, v []decide.BreakEven) {
	r.name(n)
	r.b = append(r.b, '[')
	for i := range v {
		e := &v[i]
		if i > 0 {
			r.b = append(r.b, ',')
		}
		r.b = append(r.b, r.l.elem...)
		inner := rowBuf{b: append(r.b, '{'), l: r.l.deeper(), first: true, err: r.err}
		inner.str("term", string(e.Term))
		inner.float("usd_per_hour", e.USDPerHour)
		inner.float("monthly_usd", e.MonthlyUSD)
		inner.float("term_usd", e.TermUSD)
		inner.float("break_even_vs_on_demand_hours_per_month", e.VsOnDemandHoursPerMonth)
		inner.float("break_even_vs_spot_hours_per_month", e.VsSpotHoursPerMonth)
		inner.float("used_hours_per_month", e.UsedHoursPerMonth)
		inner.float("on_demand_monthly_usd", e.OnDemandMonthlyUSD)
		inner.float("spot_monthly_usd", e.SpotMonthlyUSD)
		inner.bool("beats_on_demand", e.BeatsOnDemand)
		inner.bool("beats_spot", e.BeatsSpot)
		inner.float("effective_usd_per_used_hour", e.EffectiveUSDPerUsedHour)
		r.b, r.err = inner.done()
	}
	r.b = append(r.b, r.l.member...)
	r.b = append(r.b, ']')
}

// value marshals v with opts, its nested lines indented to the member's.
func (r *rowBuf) value(n string, v any, opts jsonv2.Options) {
	r.name(n)
	if r.err != nil {
		return
	}
	l := r.l
	if l.valueOpts == nil {
		l.valueOpts = jsonv2.JoinOptions(opts, jsontext.WithIndentPrefix(l.nested))
	}
	var b []byte
	if b, r.err = jsonv2.Marshal(v, l.valueOpts); r.err == nil {
		r.b = append(r.b, b...)
	}
}

// appendJSONString appends s quoted as encoding/json quotes it with
// HTML escaping (encoding/json/encode.go appendString): printable ASCII
// but " \ < > & as is; \b \f \n \r \t and \" \\ short; other control
// bytes and < > & as \u00XX; each invalid UTF-8 byte as \ufffd; U+2028
// and U+2029 as \u2028 and \u2029.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// jsonSafe marks the ASCII bytes encoding/json writes as they are with
// HTML escaping: printable, DEL included, but " \ < > &.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = true
	}
	for _, c := range `"\<>&` {
		t[c] = false
	}
	return t
}()

// appendJSONFloat appends v as encoding/json writes a float64 (its
// floatEncoder): the shortest decimal that reads back, in exponent form
// below 1e-6 and from 1e21, with a two-digit negative exponent's zero
// dropped (1e-07 → 1e-7). v is finite.
func appendJSONFloat(b []byte, v float64) []byte {
	abs := math.Abs(v)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
