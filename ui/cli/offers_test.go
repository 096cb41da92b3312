package cli

import (
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/model"
)

func TestPriceNote(t *testing.T) {
	cat := func(origins ...[2]string) *model.Catalog {
		c := &model.Catalog{}
		for i, o := range origins {
			c.Instances = append(c.Instances, model.Instance{Provider: "p", Type: string(rune('a' + i)), Origin: o[0], AsOf: o[1]})
		}
		return c
	}
	day := func(s string) func() time.Time {
		return func() time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	}
	upd := func() (string, error) { return "/d/gpuplan/catalog.d", nil }
	tests := []struct {
		name string
		c    *model.Catalog
		now  string
		want string
	}{
		{"embedded, fresh", cat([2]string{"embedded", "2026-11-30"}), "2026-12-01", ""},
		{"embedded, 91 days", cat([2]string{"embedded", "2026-11-30"}), "2027-03-01", "(stale: gpuplan catalog update)"},
		{"updated and two overlays", cat([2]string{"embedded", "2026-11-30"}, [2]string{"/d/gpuplan/catalog.d/skypilot-aws.toml", "2027-02-27"},
			[2]string{"/c/a.toml", "2026-01-01"}, [2]string{"/c/b.toml", "2026-01-01"}), "2027-03-01", "(updated 2027-02-27, +2 overlays)"},
	}
	for _, tt := range tests {
		env := &Env{Now: day(tt.now), UpdateDir: upd}
		if got := priceNote(env, tt.c); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
