package market

import (
	"slices"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/model"
)

func TestCatalogProvenance(t *testing.T) {
	c := &model.Catalog{Instances: []model.Instance{
		{Provider: "aws", Type: "a", Origin: "embedded", AsOf: "2026-11-30",
			Prices: []model.RegionPrice{{Region: "us-east-1"}, {Region: "us-west-2", Patch: &model.PricePatch{Origin: "/home/u/.config/gpuplan/catalog.d/neg.toml"}}}},
		{Provider: "aws", Type: "b", Origin: "embedded", AsOf: "2026-10-01"},
		{Provider: "lambda", Type: "c", Origin: "/data/gpuplan/catalog.d/skypilot-lambda.toml", AsOf: "2026-12-01"},
		{Provider: "lambda", Type: "d", Origin: "/data/gpuplan/catalog.d/skypilot-lambda.toml", AsOf: "2026-12-01"},
	}}
	p := CatalogProvenance(c, "/data/gpuplan/catalog.d")
	want := []PriceOrigin{
		{Origin: "embedded", AsOf: "2026-11-30", Types: 2},
		{Origin: "/data/gpuplan/catalog.d/skypilot-lambda.toml", Updated: true, AsOf: "2026-12-01", Types: 2},
		{Origin: "/home/u/.config/gpuplan/catalog.d/neg.toml", AsOf: "2026-11-30", Types: 1},
	}
	if len(p.Origins) != len(want) {
		t.Fatalf("origins %+v, want %+v", p.Origins, want)
	}
	for i := range want {
		if p.Origins[i] != want[i] {
			t.Errorf("origin %d = %+v, want %+v", i, p.Origins[i], want[i])
		}
	}
	if got := p.PricesAsOf(); got != "2026-12-01" {
		t.Errorf("PricesAsOf = %s, want the update's 2026-12-01", got)
	}
	// catalog update writes price patches for known types: the overlay's
	// as_of dates the regions it sets, not the instance's embedded date
	// (new-user trial: overlay as_of 2026-12-01, offers said 2026-11-30).
	upd := "/data/gpuplan/catalog.d/skypilot-aws.toml"
	c.Instances[1].Prices = []model.RegionPrice{{Region: "us-east-1", Patch: &model.PricePatch{Source: "skypilot", Origin: upd, AsOf: "2026-12-02"}}}
	p2 := CatalogProvenance(c, "/data/gpuplan/catalog.d")
	if i := slices.IndexFunc(p2.Origins, func(o PriceOrigin) bool { return o.Origin == upd }); i < 0 || p2.Origins[i].AsOf != "2026-12-02" || !p2.Origins[i].Updated {
		t.Errorf("price-patch origin %+v, want %s updated as of 2026-12-02", p2.Origins, upd)
	}
	o := model.Offer{Instance: &c.Instances[1], Region: "us-east-1"}
	if got := o.PriceAsOf(); got != "2026-12-02" {
		t.Errorf("patched region's PriceAsOf = %s, want the overlay's 2026-12-02", got)
	}
	o.Region = "eu-west-1"
	if got := o.PriceAsOf(); got != "2026-10-01" {
		t.Errorf("unpatched region's PriceAsOf = %s, want the instance's 2026-10-01", got)
	}
	if got, want := p.Line(), "prices: embedded as of 2026-11-30; updated 2026-12-01 by catalog update (1 file); overlay /home/u/.config/gpuplan/catalog.d/neg.toml (1 type)"; got != want {
		t.Errorf("Line =\n%s\nwant\n%s", got, want)
	}
}

func TestProvenanceStale(t *testing.T) {
	p := Provenance{Origins: []PriceOrigin{{Origin: "embedded", AsOf: "2026-11-30"}}}
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	tests := []struct {
		now  string
		note string
	}{
		{"2026-12-01", ""},
		{"2027-02-28", ""}, // 90 days: not past
		{"2027-03-01", "prices are 91 days old (as of 2026-11-30); refresh them with gpuplan catalog update"},
	}
	for _, tt := range tests {
		if got := p.StaleNote(day(tt.now)).String(); got != tt.note {
			t.Errorf("at %s: %q, want %q", tt.now, got, tt.note)
		}
	}
	// A hand-written overlay's date does not make old list prices fresh.
	p.Origins = append(p.Origins, PriceOrigin{Origin: "/x.toml", AsOf: "2027-03-01"})
	if !p.Stale(day("2027-03-01")) {
		t.Error("an overlay's date hid stale list prices")
	}
}

// TestProvenanceOlderUpdate: catalog update's files older than the
// embedded prices (a newer gpuplan installed since the fetch) are not
// called "updated": the load left out their prices the embedded catalog
// has newer, so what remains are offers it lacks or has older.
func TestProvenanceOlderUpdate(t *testing.T) {
	tests := []struct {
		name, update, want string
	}{
		{"newer update", "2026-12-05", "prices: embedded as of 2026-12-03; updated 2026-12-05 by catalog update (1 file)"},
		{"same day", "2026-12-03", "prices: embedded as of 2026-12-03; updated 2026-12-03 by catalog update (1 file)"},
		{"older update", "2026-10-01", "prices: embedded as of 2026-12-03; catalog update of 2026-10-01 (1 file), older: only for offers the embedded catalog lacks or has older"},
	}
	for _, tt := range tests {
		p := Provenance{Origins: []PriceOrigin{{Origin: "embedded", AsOf: "2026-12-03"},
			{Origin: "/data/gpuplan/catalog.d/skypilot-aws.toml", Updated: true, AsOf: tt.update}}}
		if got := p.Line(); got != tt.want {
			t.Errorf("%s: Line =\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}
