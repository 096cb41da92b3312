package data

import (
	"regexp"
	"testing"
	"time"
)

// TestAsOfIsTheSourcesDate: a row whose price was read from a dated page
// carries that page's date as as_of, not the day the catalog was generated
// (new-user walk: DigitalOcean's H100 rows, $6.74 and $47.60 from SkyPilot's
// older v6 file, were stamped 2026-12-02; DigitalOcean's pricing page,
// validated 28 May 2026, says $3.39 and $23.92). A source whose price part
// names a "validated D Month YYYY" date must have that as_of.
func TestAsOfIsTheSourcesDate(t *testing.T) {
	cat, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	validated := regexp.MustCompile(`price: [^;]*?validated (\d{1,2} [A-Z][a-z]+ \d{4})`)
	n := 0
	for i := range cat.Instances {
		in := &cat.Instances[i]
		m := validated.FindStringSubmatch(in.Source)
		if m == nil {
			continue
		}
		n++
		d, err := time.Parse("2 January 2006", m[1])
		if err != nil {
			t.Fatalf("%s %s: %q: %v", in.Provider, in.Type, m[1], err)
		}
		if want := d.Format(time.DateOnly); in.AsOf != want {
			t.Errorf("%s %s: as_of %s, but its price was read from a page validated %s", in.Provider, in.Type, in.AsOf, want)
		}
	}
	if n < 4 {
		t.Errorf("%d rows cite a validated price page, want at least DigitalOcean's 4", n)
	}
	for _, c := range []struct {
		typ  string
		want float64
	}{{"gpu-h100x1-80gb", 3.39}, {"gpu-h100x8-640gb", 23.92}} {
		for i := range cat.Instances {
			if in := &cat.Instances[i]; in.Provider == "do" && in.Type == c.typ {
				if len(in.Prices) != 1 || in.Prices[0].OnDemandUSD != c.want {
					t.Errorf("do %s: prices %+v, want %v per hour (DigitalOcean's pricing page)", c.typ, in.Prices, c.want)
				}
			}
		}
	}
}
