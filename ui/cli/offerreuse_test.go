package cli

import (
	"bytes"
	"reflect"
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/report"
)

// TestOfferReuseSame: recommend --json writes the same bytes whether an
// offer that differs from the one before only in its place copies that
// one's layout (offerReuse) or is laid out whole: on-demand, spot (never
// reused), reserved terms (commitment members), a deadline (chances and
// ranges), borderline offers and a cut list.
func TestOfferReuseSame(t *testing.T) {
	base := []string{"recommend", "--json", "--model", "llama-3.1-8b", "--task", "qlora"}
	for _, extra := range [][]string{
		nil,
		{"--pricing", "spot"},
		{"--pricing", "reserved-1y"},
		{"--hours-per-month", "200"},
		{"--dataset-tokens", "50M", "--deadline-hours", "30", "--sort", "job"},
		{"--model", "llama-3.1-70b", "--task", "finetune", "--allow-multi-node", "--limit", "300"},
		{"--providers", "aws,gcp,azure", "--regions", "europe"},
	} {
		args := append(slices.Clone(base), extra...)
		reuseOffers = false
		code, whole, errs := runCLI(t, args...)
		reuseOffers = true
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, errs)
		}
		_, reused, _ := runCLI(t, args...)
		if reused != whole {
			i := 0
			for i < min(len(whole), len(reused)) && whole[i] == reused[i] {
				i++
			}
			t.Fatalf("%v: reused layout differs at byte %d:\nreused %q\nwhole  %q", extra, i, reused[max(i-80, 0):min(i+80, len(reused))], whole[max(i-80, 0):min(i+80, len(whole))])
		}
	}
}

// TestOfferReuseCopies: the second of two offers that differ only in
// their place is copied (the first is kept) and comes out as laid out
// whole; a third differing in price is laid out whole again.
func TestOfferReuseCopies(t *testing.T) {
	hours := 12.5
	a := report.OfferJSON{Provider: "aws", InstanceType: "g6e.xlarge", Region: "us-east-1", GPU: "l40s", GPUCount: 1,
		PricePerHourUSD: 1.86, JobHours: &hours, Warnings: []string{"w"}, Source: "s", Country: "US", City: "Ashburn", Continent: "north-america",
		Commitment: []decide.BreakEven{{Term: "reserved-1y", USDPerHour: 1.1}}}
	b := a
	b.Region, b.Country, b.City, b.Continent, b.RegionsUnconfirmed = "eu-west-1", "IE", "Dublin", "europe", true
	c := b
	c.PricePerHourUSD = 1.9
	write := func(reuse bool) ([]byte, bool) {
		reuseOffers = reuse
		defer func() { reuseOffers = true }()
		o := jsonOut{}
		o.begin('[')
		copied := false
		for i, of := range []*report.OfferJSON{&a, &b, &c} {
			o.elem()
			if i == 1 {
				copied = o.last.ok && sameButPlace(&o.last.of, of)
			}
			o.offer(of)
		}
		o.end(']')
		return o.b, copied
	}
	whole, _ := write(false)
	reused, copied := write(true)
	if !copied {
		t.Fatal("the second offer, another region of the first, was not copied")
	}
	if !bytes.Equal(whole, reused) {
		t.Fatalf("copied:\n%s\nlaid out whole:\n%s", reused, whole)
	}
	if !bytes.Contains(reused, []byte(`"region": "eu-west-1"`)) || !bytes.Contains(reused, []byte(`"city": "Dublin"`)) {
		t.Fatalf("the copy lost its own place:\n%s", reused)
	}
}

// TestSameButPlaceFields changes each member of OfferJSON in turn:
// sameButPlace must see every change but one of the place's, so a member
// added to OfferJSON without a comparison fails here.
func TestSameButPlaceFields(t *testing.T) {
	place := map[string]bool{"Region": true, "Country": true, "City": true, "Continent": true, "RegionsUnconfirmed": true}
	var base report.OfferJSON
	v := reflect.ValueOf(&base).Elem()
	fill := func(f reflect.Value, n int) {
		switch f.Kind() {
		case reflect.String:
			f.SetString(string(rune('a' + n)))
		case reflect.Int:
			f.SetInt(int64(n + 1))
		case reflect.Float64:
			f.SetFloat(float64(n) + 0.5)
		case reflect.Bool:
			f.SetBool(n%2 == 0)
		case reflect.Pointer:
			p := reflect.New(f.Type().Elem())
			if p.Elem().Kind() == reflect.Float64 {
				p.Elem().SetFloat(float64(n) + 0.25)
			}
			f.Set(p)
		case reflect.Slice:
			s := reflect.MakeSlice(f.Type(), 1, 1)
			if s.Index(0).Kind() == reflect.String {
				s.Index(0).SetString(string(rune('a' + n)))
			} else {
				s.Index(0).FieldByName("USDPerHour").SetFloat(float64(n))
			}
			f.Set(s)
		default:
			t.Fatalf("OfferJSON.%s: kind %s not covered", v.Type().Field(0).Name, f.Kind())
		}
	}
	for i := range v.NumField() {
		if v.Type().Field(i).Name != "Spot" {
			fill(v.Field(i), i)
		}
	}
	if !sameButPlace(&base, &base) {
		t.Fatal("an offer is not the same as itself")
	}
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		changed := base
		f := reflect.ValueOf(&changed).Elem().Field(i)
		switch {
		case name == "Spot":
			f.Set(reflect.New(f.Type().Elem()))
		case f.Kind() == reflect.Pointer:
			p := reflect.New(f.Type().Elem())
			p.Elem().SetFloat(f.Elem().Float() + 1)
			f.Set(p)
		case f.Kind() == reflect.Slice:
			f.Set(reflect.Zero(f.Type())) // nil: "null" or left out, not the one element
		case f.Kind() == reflect.Bool:
			f.SetBool(!f.Bool())
		default:
			fill(f, i+7)
		}
		if got := sameButPlace(&base, &changed); got != place[name] {
			t.Errorf("OfferJSON.%s changed: sameButPlace = %v, want %v", name, got, place[name])
		}
		if f.Kind() == reflect.Pointer && name != "Spot" { // present against absent
			f.Set(reflect.Zero(f.Type()))
			if sameButPlace(&base, &changed) {
				t.Errorf("OfferJSON.%s absent: sameButPlace = true", name)
			}
		}
	}
}
