package report

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
)

// TestAppendJSONSame holds the splicer's strings and floats to
// encoding/json's bytes.
func TestAppendJSONSame(t *testing.T) {
	strs := []string{"", "aws", "a\"b", `c\d`, "<b>&", "tab\there", "\x00\x1f\x7f", "é—€", "\u2028\u2029",
		"bad \xff byte", "\xc3", "us-east-1", "ok ~ }{ []"}
	for _, s := range strs {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, 9.99e-7, 1e-7, 1.5e-10, 1e20, 1e21, 1.2345e25,
		-3.3e-8, 12.29, 98.32 / 8, math.MaxFloat64, math.SmallestNonzeroFloat64, 123456789.125}
	for _, f := range floats {
		want, _ := json.Marshal(f)
		if got := appendJSONFloat(nil, f); !bytes.Equal(got, want) {
			t.Errorf("%v: got %s, want %s", f, got, want)
		}
	}
}

// TestRowSplicerSame: a document with offer lists at two depths, one
// empty, one nil, through the splicer and small writes is the encoder's
// own bytes.
func TestRowSplicerSame(t *testing.T) {
	offer := func(i int) OfferJSON {
		h := float64(i) * 1.25
		return OfferJSON{Provider: "p<" + string(rune('a'+i%26)), InstanceType: "t\xff", GPU: "h100", GPUCount: i,
			VRAMNeedGiB: 1e-7 * float64(i), Warnings: []string{"w1", "w\u2028"}[:i%3%2+i%3/2], JobHours: &h,
			GPUsNeeded: i % 2}
	}
	if !breakEvenFields {
		t.Fatal("decide.BreakEven changed: update breakEvenNames and rowBuf.breakEvens")
	}
	type inner struct {
		Offers []OfferJSON `json:"offers"`
	}
	type doc struct {
		A     string      `json:"a"`
		Big   []OfferJSON `json:"big"`
		Empty []OfferJSON `json:"empty"`
		Nil   []OfferJSON `json:"nil"`
		In    inner       `json:"in"`
		Z     int         `json:"z"`
	}
	var d doc
	d.A, d.Empty, d.Z = "x", []OfferJSON{}, 3
	for i := range 700 {
		o := offer(i)
		for k := range i % 3 {
			o.Commitment = append(o.Commitment, decide.BreakEven{Term: model.Reserved1y, USDPerHour: 0.4438 * float64(k+i), MonthlyUSD: 1e-7,
				BeatsSpot: k == 1, EffectiveUSDPerUsedHour: 1e22})
		}
		d.Big = append(d.Big, o)
	}
	d.In.Offers = []OfferJSON{offer(1), offer(2)}
	base := jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsontext.WithIndent("  "))
	want, err := jsonv2.Marshal(d, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []int{1, 7, 4096} {
		var out bytes.Buffer
		sp := NewRowSplicer(&chunked{&out, chunk})
		if err := jsonv2.MarshalWrite(sp, d, base, jsonv2.WithMarshalers(sp.Marshalers())); err != nil {
			t.Fatal(err)
		}
		got := bytes.TrimSuffix(out.Bytes(), []byte("\n"))
		if !bytes.Equal(got, want) {
			t.Fatalf("chunk %d: spliced bytes differ (%d and %d bytes)\n%.2000s", chunk, len(got), len(want), got)
		}
	}
}

// chunked writes at most n bytes a call to w, as many calls as it takes.
type chunked struct {
	w *bytes.Buffer
	n int
}

func (c *chunked) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		k := min(c.n, len(p))
		c.w.Write(p[:k])
		p = p[k:]
	}
	return n, nil
}

// TestRowSplicerFlushed: whatever the encoder's buffer holds before a
// list (padding moves where it flushes, at times just after the list's
// '['), the rows land inside the brackets.
func TestRowSplicerFlushed(t *testing.T) {
	type doc struct {
		Pad    string      `json:"pad"`
		Offers []OfferJSON `json:"offers"`
	}
	base := jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsontext.WithIndent("  "))
	for n := range 2500 {
		d := doc{Pad: string(bytes.Repeat([]byte("x"), n)), Offers: []OfferJSON{{Provider: "a"}, {Provider: "b", Warnings: []string{}}}}
		want, err := jsonv2.Marshal(d, base)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		sp := NewRowSplicer(&out)
		if err := jsonv2.MarshalWrite(sp, d, base, jsonv2.WithMarshalers(sp.Marshalers())); err != nil {
			t.Fatal(err)
		}
		if got := bytes.TrimSuffix(out.Bytes(), []byte("\n")); !bytes.Equal(got, want) {
			t.Fatalf("padding %d: spliced bytes differ\n%s", n, got)
		}
	}
}
