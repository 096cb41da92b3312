package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/ui/report"
)

// writeJSONBoth returns writeJSON's and writeJSONStream's bytes for v.
func writeJSONBoth(t testing.TB, v any) (want, got []byte) {
	t.Helper()
	var a, b bytes.Buffer
	errA, errB := writeJSON(&a, v), writeJSONStream(&b, v)
	if (errA == nil) != (errB == nil) {
		t.Fatalf("writeJSON error %v, writeJSONStream error %v", errA, errB)
	}
	return a.Bytes(), b.Bytes()
}

// TestWriteJSONStreamSame pins that recommend's one-pass writer prints
// exactly what encoding/json's indenting Encoder prints: the README's
// samples and every script reading `recommend --json` depend on the bytes.
func TestWriteJSONStreamSame(t *testing.T) {
	type inner struct {
		N int `json:"n,omitempty"`
	}
	type shapes struct {
		Empty    []int              `json:"empty"`
		Nil      []int              `json:"nil"`
		NilMap   map[string]int     `json:"nil_map"`
		Map      map[string]float64 `json:"map"`
		EmptyObj struct{}           `json:"empty_obj"`
		Omitted  string             `json:"omitted,omitempty"`
		Ptr      *inner             `json:"ptr"`
		Raw      json.RawMessage    `json:"raw"`
		Any      any                `json:"any"`
		Ignored  int                `json:"-"`
	}
	tests := []struct {
		name string
		v    any
	}{
		// encoding/json switches to exponent form below 1e-6 and from 1e21,
		// and trims "e-07" to "e-7".
		{"floats", []float64{0, -0.0, 1, 0.1, 1e-6, 1e-7, 123456789.125, 1e20, 1e21, 8.226100, 0.36979999999999996, math.MaxFloat64, math.SmallestNonzeroFloat64}},
		{"float32", []float32{0.1, 1e-7, 3.4e38}},
		// HTML characters are escaped by default; U+2028/2029 always.
		{"strings", []string{"", "a<b>&c", "tab\tnl\n", "quote\" back\\", "\u2028\u2029", "日本 ✓", "\x7f", "\x00"}},
		{"invalid utf-8", "a\xffb"},
		{"shapes", shapes{Empty: []int{}, Map: map[string]float64{"b": 2, "a": 1, "<": 0}, Ptr: &inner{}, Raw: json.RawMessage(` { "x" : [ 1 , 2 ] } `), Any: map[string]any{"z": nil, "y": []any{}}}},
		{"nested empty", map[string]any{"a": []any{map[string]any{}, []any{}}, "b": map[string]any{"c": map[string]any{}}}},
		{"scalars", []any{true, false, nil, int64(math.MaxInt64), uint8(7), "s"}},
		{"bytes", struct{ B []byte }{[]byte("hi\x00")}},
		{"recommend json", report.RecommendJSON{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, got := writeJSONBoth(t, tt.v)
			if !bytes.Equal(got, want) {
				t.Errorf("writeJSONStream:\n%s\nwriteJSON:\n%s", got, want)
			}
		})
	}
}

// TestRecommendJSONStreamSame re-encodes a whole `recommend --json` (offers,
// estimates, near misses, decisions, savings) both ways: the document
// decodes into report.RecommendJSON and both writers must print the CLI's
// bytes back.
func TestRecommendJSONStreamSame(t *testing.T) {
	for _, args := range [][]string{
		{"recommend", "--json", "--model", "llama-3.1-8b", "--task", "qlora"},
		{"recommend", "--json", "--model", "bert-large", "--task", "finetune", "--dataset-samples", "88k", "--epochs", "2", "--pricing", "spot"},
	} {
		code, out, errs := runWithSpot(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var j report.RecommendJSON
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatal(err)
		}
		want, got := writeJSONBoth(t, j)
		if !bytes.Equal(got, want) {
			t.Fatalf("%v: writeJSONStream and writeJSON differ (%d and %d bytes)", args, len(got), len(want))
		}
		if string(want) != out {
			t.Skipf("%v: report.RecommendJSON does not round-trip the document; compared the writers on what it holds", args)
		}
	}
}

// FuzzWriteJSONStream: any string and number as values, both writers, same
// bytes. Map keys stay valid UTF-8: there jsontext writes U+FFFD itself
// where encoding/json writes the escape, and report.RecommendJSON has no
// maps (see writeJSONStream).
func FuzzWriteJSONStream(f *testing.F) {
	f.Add("a<b>&c", 0.1, int64(-3))
	f.Add("\u2028\xff", 1e-7, int64(0))
	f.Fuzz(func(t *testing.T, s string, x float64, n int64) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			x = 0 // both refuse these; the error paths are not the point
		}
		v := map[string]any{"a": []any{s, x, n, map[string]any{}, []string{s}}, "k": struct {
			S string  `json:"s,omitempty"`
			X float64 `json:"x"`
		}{s, x}}
		// recommend's document, whose offers writeRecommendJSON appends itself.
		r := report.RecommendJSON{Sort: s, Offers: []report.OfferJSON{{Provider: s, VRAMNeedGiB: x, GPUCount: int(n), Warnings: []string{s}}}}
		for _, v := range []any{v, r} {
			want, got := writeJSONBoth(t, v)
			if !bytes.Equal(got, want) {
				t.Errorf("writeJSONStream:\n%q\nwriteJSON:\n%q", got, want)
			}
		}
	})
}

// fillRow sets every exported field of the struct v points to from the
// tables below, seed picking the values, so that no field is left at its
// zero value unless the seed says so: nil and empty slices, nil and set
// pointers, escaped and invalid strings, floats in both of encoding/json's
// forms.
func fillRow(v reflect.Value, seed int) {
	strs := []string{"", "aws", "a<b>&c", "tab\tnl\n", "\u2028", "a\xffb", "日本", "\x00"}
	floats := []float64{0, 1, 0.1, -0.0, 1e-7, 1e21, 123456789.125, 0.36979999999999996, 12.29}
	for i := range v.NumField() {
		f := v.Field(i)
		if !f.CanSet() {
			continue
		}
		k := seed + 3*i
		switch f.Kind() {
		case reflect.String:
			if f.Type() != reflect.TypeFor[string]() && !utf8.ValidString(strs[k%len(strs)]) {
				// A named string type (model.Pricing: constants) misses
				// invalidUTF8String, which is for string: jsontext's U+FFFD
				// (see writeJSONStream).
				k++
			}
			f.SetString(strs[k%len(strs)])
		case reflect.Int, reflect.Int64:
			f.SetInt(int64([]int{0, 1, 8, -2, 1 << 40}[k%5]))
		case reflect.Float64:
			f.SetFloat(floats[k%len(floats)])
		case reflect.Bool:
			f.SetBool(k%2 == 1)
		case reflect.Pointer:
			if k%3 == 0 {
				continue // nil
			}
			p := reflect.New(f.Type().Elem())
			switch p.Elem().Kind() {
			case reflect.Float64:
				p.Elem().SetFloat(floats[k%len(floats)])
			case reflect.Struct:
				fillRow(p.Elem(), k)
			}
			f.Set(p)
		case reflect.Slice:
			switch k % 3 {
			case 0: // nil
			case 1:
				f.Set(reflect.MakeSlice(f.Type(), 0, 0))
			case 2:
				s := reflect.MakeSlice(f.Type(), 2, 2)
				for j := range 2 {
					switch e := s.Index(j); e.Kind() {
					case reflect.String:
						e.SetString(strs[(k+j)%len(strs)])
					case reflect.Struct:
						fillRow(e, k+j)
					}
				}
				f.Set(s)
			}
		case reflect.Struct:
			fillRow(f, k)
		}
	}
}

// fillRows returns n structs filled by fillRow, from seed on.
func fillRows[T any](n, seed int) []T {
	rows := make([]T, n)
	for i := range rows {
		fillRow(reflect.ValueOf(&rows[i]).Elem(), seed+i)
	}
	return rows
}

// TestRowTokensSame holds the rows that write themselves as tokens
// (report.OfferJSON: MarshalJSONTo), and the market's rows in any other
// document, to encoding/json's
// bytes, which go through reflection and every field: a field added to the
// struct and not to its MarshalJSONTo fails here.
func TestRowTokensSame(t *testing.T) {
	for seed := range 24 {
		var m report.MarketRowJSON
		var o report.OfferJSON
		fillRow(reflect.ValueOf(&m).Elem(), seed)
		fillRow(reflect.ValueOf(&o).Elem(), seed)
		for _, v := range []any{m, o, []report.MarketRowJSON{m, {}}, []report.OfferJSON{o, {}},
			report.MarketJSON{MarketListJSON: report.MarketListJSON{Rows: []report.MarketRowJSON{m}}},
			report.RecommendJSON{Offers: []report.OfferJSON{o}}} {
			want, got := writeJSONBoth(t, v)
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %d, %T: writeJSONStream:\n%s\nwriteJSON:\n%s", seed, v, got, want)
			}
		}
	}
}

// TestStreamMarketJSONSame holds report.StreamMarketJSON, which offers
// --json writes (writeMarketJSON), to encoding/json's bytes of the MarketJSON it stands for,
// over the embedded catalog's market: plain, grouped, every region.
func TestStreamMarketJSONSame(t *testing.T) {
	cat, _, err := data.LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	for seed, q := range []market.Query{{}, {GroupBy: market.GroupProvider}, {AllRegions: true, Pricing: model.Spot}} {
		res, err := market.Browse(cat, q)
		if err != nil {
			t.Fatal(err)
		}
		var m report.MarketJSON
		fillRow(reflect.ValueOf(&m).Elem(), seed) // every member of MarketJSON's own
		m.MarketListJSON = report.NewMarketListJSON(&res)
		var a, b bytes.Buffer
		if err := writeJSON(&a, m); err != nil {
			t.Fatal(err)
		}
		if err := writeJSONStream(&b, report.StreamMarketJSON(m, &res)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("%+v: StreamMarketJSON differs from MarketJSON (%d and %d bytes)", q, b.Len(), a.Len())
		}
	}
}

// TestRecommendJSONWriterSame holds writeRecommendJSON, which writes the
// offers of recommend --json itself, to encoding/json's bytes for every
// member of RecommendJSON and of its offers (filled by fillRow: nil and
// empty lists, escaped and invalid strings, both float forms), with and
// without probe corrections: a member added to RecommendJSON, OfferJSON
// or decide.BreakEven and not to the writer fails here.
func TestRecommendJSONWriterSame(t *testing.T) {
	for seed := range 24 {
		var j report.RecommendJSON
		fillRow(reflect.ValueOf(&j).Elem(), seed)
		j.Offers = append(j.Offers, fillRows[report.OfferJSON](3, seed)...)
		var probes []report.ProbeCorrectionJSON
		if seed%2 == 1 {
			probes = make([]report.ProbeCorrectionJSON, seed%3)
		}
		for _, v := range []any{j, recommendProbeJSON{j, probes}, report.RecommendJSON{}, report.RecommendJSON{Offers: []report.OfferJSON{}}} {
			want, got := writeJSONBoth(t, v)
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %d, %T: writeJSONStream:\n%s\nwriteJSON:\n%s", seed, v, got, want)
			}
		}
	}
}

// TestMarketJSONWriterSame holds writeMarketJSON, which writes offers
// --json, to encoding/json's bytes for every member of MarketJSON and of
// its rows (filled by fillRow: nil and empty lists, escaped and invalid
// strings, both float forms, nil and set prices): a member added to
// MarketJSON, MarketListJSON or MarketRowJSON and not to the writer fails
// here. (TestStreamMarketJSONSame holds the rows laid out from a result.)
func TestMarketJSONWriterSame(t *testing.T) {
	for seed := range 24 {
		var m report.MarketJSON
		fillRow(reflect.ValueOf(&m).Elem(), seed)
		m.Rows = append(m.Rows, fillRows[report.MarketRowJSON](3, seed)...)
		for _, m := range []report.MarketJSON{m, {}, {MarketListJSON: report.MarketListJSON{Rows: []report.MarketRowJSON{}}}} {
			var a, b bytes.Buffer
			errA, errB := writeJSON(&a, m), writeJSONStream(&b, report.MarketStreamJSON{MarketJSON: m})
			if (errA == nil) != (errB == nil) {
				t.Fatalf("seed %d: writeJSON error %v, writeMarketJSON error %v", seed, errA, errB)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatalf("seed %d: writeMarketJSON:\n%s\nwriteJSON:\n%s", seed, b.Bytes(), a.Bytes())
			}
		}
	}
}

// BenchmarkWriteRecommendJSON writes the document of `recommend --json
// --model llama-3.1-8b --task qlora` (~900 offers, ~1 MB) with
// writeRecommendJSON and, for comparison, through the token encoder.
func BenchmarkWriteRecommendJSON(b *testing.B) {
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	b.Setenv("XDG_DATA_HOME", b.TempDir())
	b.Setenv("HOME", b.TempDir())
	var out bytes.Buffer
	if code := Run(Env{Args: []string{"recommend", "--json", "--model", "llama-3.1-8b", "--task", "qlora"}, Stdin: strings.NewReader(""),
		Stdout: &out, Stderr: io.Discard, Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith}); code != 0 {
		b.Fatalf("exit %d", code)
	}
	var j report.RecommendJSON
	if err := json.Unmarshal(out.Bytes(), &j); err != nil {
		b.Fatal(err)
	}
	for _, w := range []struct {
		name  string
		write func(io.Writer, any) error
	}{{"appended", writeJSONStream}, {"tokens", writeJSONEncoder}} {
		b.Run(w.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := w.write(io.Discard, j); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestAppendDecimal holds appendDecimal, writeRecommendJSON's fast path
// for short decimals, to strconv's shortest 'f' form: the figures of an
// offer, values at each scale it tries, and those it must leave to
// strconv (ok false).
func TestAppendDecimal(t *testing.T) {
	tenth := 0.1
	sum := tenth + 0.2 // 0.30000000000000004 at run time (a constant 0.1 + 0.2 is 0.3)
	vs := []float64{0.29, 211.7, 14.99, 34.3, 1, 24, 0.05, 0.45, 4613.6, 0.4438, 3888.1, 8331.65, 0.3, sum,
		1e-4, 0.0001, 0.00012, 9999.9999, 1e-5, 0.00001, 0.000012, 1e-6, 0.000001, 12.290001, 0.123457, 987654.654321, 1e8 + 0.5, 1e10, 99999999999.5, 123456789.125, 0.36979999999999996, 100, 10.5, 1.05,
		0, math.Copysign(0, -1), -1.5, 1e11, 1e15, 1e-7, math.MaxFloat64, math.SmallestNonzeroFloat64, 2.5e-5}
	for i := range 2000 {
		vs = append(vs, float64(i)/100, float64(i*37)/1000, float64(i)*1.1, float64(i)/3, math.Round(float64(i)/7*1e6)/1e6, float64(i*123457)/1e6)
	}
	for _, v := range vs {
		got, ok := appendDecimal(nil, v)
		if !ok {
			continue
		}
		if want := strconv.FormatFloat(v, 'f', -1, 64); string(got) != want {
			t.Errorf("appendDecimal(%v) = %s, strconv %s", v, got, want)
		}
	}
	for _, v := range []float64{math.Copysign(0, -1), -1.5, 1e11, 1e-7, sum, 1.0 / 3, 0.0000001, 1e9 + 0.000001} {
		if got, ok := appendDecimal(nil, v); ok {
			t.Errorf("appendDecimal(%v) = %s, want it left to strconv", v, got)
		}
	}
}

func FuzzAppendDecimal(f *testing.F) {
	f.Add(0.29)
	f.Add(8331.65)
	f.Add(1e-4)
	f.Fuzz(func(t *testing.T, v float64) {
		for _, x := range []float64{v, math.Round(v*100) / 100, math.Round(v*1e4) / 1e4, math.Round(v*1e6) / 1e6} {
			if got, ok := appendDecimal(nil, x); ok {
				if want := strconv.FormatFloat(x, 'f', -1, 64); string(got) != want {
					t.Errorf("appendDecimal(%v) = %s, strconv %s", x, got, want)
				}
			}
		}
	})
}

// TestRecommendJSONStreamed: recommend's document with its offers
// streamed (report.NewRecommendJSONStream, what the CLI writes) prints
// the bytes of the one that holds them (NewRecommendJSON, AddDecisions),
// for on-demand, spot with a dataset (spot estimates, break-evens), a
// limit, and no offer at all.
func TestRecommendJSONStreamed(t *testing.T) {
	cat, _, err := data.LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	rate, _, err := data.SpotRates()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		model   string
		task    model.Task
		tokens  float64
		pricing model.Pricing
		gpus    int
		limit   int
	}{
		{"llama-3.1-8b", model.TaskQLoRA, 0, "", 0, 0},
		{"bert-large", model.TaskFinetune, 1e8, model.Spot, 0, 0},
		{"llama-3.1-8b", model.TaskQLoRA, 1e9, model.Reserved1y, 0, 3},
		{"llama-3.1-405b", model.TaskFinetune, 0, "", 1, 0},
	} {
		a, err := cat.Model(c.model)
		if err != nil {
			t.Fatal(err)
		}
		w := model.Workload{Settings: model.Settings{Task: c.task, DatasetTokens: c.tokens, GPUs: c.gpus}, Model: *a}
		q := model.Query{Pricing: c.pricing, AutoGPUs: c.gpus == 0}
		rec, err := model.Recommend(w, cat, q)
		if err != nil {
			t.Fatal(err)
		}
		base, err := model.Compute(w, nil)
		if err != nil {
			t.Fatal(err)
		}
		d := report.Decide(&rec, report.DecideInput{Catalog: cat, Workload: w, Query: q, HoursPerMonth: model.HoursPerMonth, Savings: true, Rate: rate,
			Spot: decide.SpotAssumptions{CheckpointWriteBytesPerSecond: decide.DefaultCheckpointWriteBytesPerSecond, RestartHours: decide.DefaultRestartHours}})
		held := report.NewRecommendJSON(&rec, &base, c.limit)
		held.AddDecisions(&rec, d)
		// The CLI's: the savings ranked aside while the offers are written.
		aside := report.Decide(&rec, report.DecideInput{Catalog: cat, Workload: w, Query: q, HoursPerMonth: model.HoursPerMonth, Savings: true, SavingsAside: true, Rate: rate,
			Spot: decide.SpotAssumptions{CheckpointWriteBytesPerSecond: decide.DefaultCheckpointWriteBytesPerSecond, RestartHours: decide.DefaultRestartHours}})
		streamed := report.NewRecommendJSONStream(&rec, &base, c.limit, aside)
		var a1, b1 bytes.Buffer
		if err := writeJSONStream(&a1, held); err != nil {
			t.Fatal(err)
		}
		if err := writeJSONStream(&b1, streamed); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a1.Bytes(), b1.Bytes()) {
			t.Errorf("%+v: streamed offers differ from held ones (%d and %d bytes)", c, b1.Len(), a1.Len())
		}
		if c.model == "bert-large" && !bytes.Contains(a1.Bytes(), []byte(`"spot": {`)) {
			t.Errorf("%+v: no spot estimate in the document; the case tests nothing of AddDecisions", c)
		}
		if c.limit > 0 && len(held.Offers) != report.OffersInRows(rec.Offers, c.limit) {
			t.Errorf("%+v: %d offers held, want those of the first %d rows", c, len(held.Offers), c.limit)
		}
	}
}

// TestStrValueRemembersPlain: strValue writes each string as
// encoding/json does when long plain strings it remembers (plain) come
// again, and when a string of the same length as one remembered differs
// from it by a character to escape (HTML, a quote, a control, U+2028,
// invalid UTF-8) or comes after the memory has turned over.
func TestStrValueRemembersPlain(t *testing.T) {
	long := strings.Repeat("skypilot-org/skypilot-catalog catalogs/v8/aws/vms.csv ", 2)
	var list []string
	for i := range plainStrings + 3 {
		list = append(list, fmt.Sprintf("%s%03d", long, i))
	}
	for _, bad := range []string{"<", ">", "&", `"`, `\`, "\n", "\u2028", "\xff", "é"} {
		s := long + "00" + bad
		list = append(list, s[:len(long)+3-len(bad)]+bad, s[:len(long)+3-len(bad)]+bad) // twice: not remembered
	}
	list = append(list, list...) // the plain ones again, some remembered, some turned over
	list = append(list, long[:plainMin-1], long[:plainMin], long[:plainMin], "")
	var o jsonOut
	for _, s := range list {
		o.b = o.b[:0]
		o.strValue(s)
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if string(o.b) != string(want) {
			t.Errorf("strValue(%q) = %s, encoding/json %s", s, o.b, want)
		}
	}
}

// FuzzJSONClass: jsonClass is the union of jsonByte over the string's
// bytes, whatever they are and wherever a word boundary falls.
func FuzzJSONClass(f *testing.F) {
	for _, s := range []string{"", "plain ascii text of some length", "a<b", "12345678\x1f", "1234567\"8", "\\", "日本語のテキスト", "abcdefg\x7f<", "\xff\xfe", "abcdefgh&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want byte
		for i := 0; i < len(s); i++ {
			want |= jsonByte[s[i]]
		}
		if got := jsonClass(s); got != want {
			t.Errorf("jsonClass(%q) = %d, byte by byte %d", s, got, want)
		}
	})
}

// TestJSONClassEveryByte: each byte value at each position of a word and
// of the tail, alone among plain letters, classed as jsonByte does.
func TestJSONClassEveryByte(t *testing.T) {
	for c := range 256 {
		for n := 1; n <= 17; n++ {
			for at := range n {
				b := []byte(strings.Repeat("a", n))
				b[at] = byte(c)
				if got, want := jsonClass(string(b)), jsonByte[c]; got != want {
					t.Fatalf("jsonClass(%q) = %d, want %d", b, got, want)
				}
			}
		}
	}
}
