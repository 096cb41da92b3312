package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// New-user walk (walk35): the configurator's serving TOML left [search]'s
// providers and regions empty, so recommend --config of it ranked the
// whole market rather than the offer picked; an export pins them to the
// picked offer, serving and training alike, through the function gpuplan
// export --format toml uses (config.SearchAnswers.PinTo), and the file
// reloads to the same answers.
func TestExportPinsSearchToOffer(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    func(t *testing.T) app
	}{
		{"serving", func(t *testing.T) app { return servingApp(t, 120, 40) }},
		{"training", func(t *testing.T) app { return start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.m(t)
			picked := m.res.best()
			if picked == nil {
				t.Fatal("no offer")
			}
			c, err := exportConfigOf(m.a, m.res, picked, m.cat.AsOf)
			if err != nil {
				t.Fatal(err)
			}
			want := config.SearchAnswers{Providers: []string{picked.Instance.Provider}, Regions: []string{picked.Region}}
			if !slices.Equal(c.Search.Providers, want.Providers) || !slices.Equal(c.Search.Regions, want.Regions) || c.Search.Pricing != picked.Pricing {
				t.Errorf("[search] providers %q regions %q pricing %q; want the picked offer's %q %q %q",
					c.Search.Providers, c.Search.Regions, c.Search.Pricing, want.Providers, want.Regions, picked.Pricing)
			}
			b, err := config.Encode(&c)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "Pinned to the picked offer's provider and region") {
				t.Errorf("the file does not say [search] is pinned:\n%s", b)
			}
			back, err := config.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			// Reopened, the configurator ranks the picked offer again.
			r := start(t, newTestApp(t, m.cat, Options{Config: &back}), size(120, 40))
			if !r.res.ok() || !slices.ContainsFunc(r.res.rec.Offers, func(o model.Offer) bool {
				return o.Instance.Type == picked.Instance.Type && o.Region == picked.Region
			}) {
				t.Errorf("the reopened file does not rank %s %s", picked.Instance.Type, picked.Region)
			}
		})
	}
}
