package plan

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestPhaseSearch: recommend --phase searches as the phase is priced —
// its pricing mode (on-demand when left out), its hours a month, several
// nodes for several instances — on every provider, and says how to keep
// to the phase's own offer (walk37: a spot phase's recommend ranked
// on-demand offers).
func TestPhaseSearch(t *testing.T) {
	base := model.Query{Pricing: model.OnDemand, Providers: []string{"aws"}, MaxNodes: 1}
	for _, tt := range []struct {
		ph   Phase
		want model.Query
		note string
	}{
		{Phase{Name: "ft", Provider: "gcp", Instance: "g2-standard-4", Region: "us-central1", Pricing: model.Spot},
			model.Query{Pricing: model.Spot, Providers: []string{"aws"}, MaxNodes: 1},
			`phase "ft": offers ranked as the phase is priced (spot), on every provider the search allows; the phase rents g2-standard-4 in gcp us-central1 (--providers gcp --regions us-central1 keeps to it)`},
		{Phase{Name: "big", Provider: "aws", Instance: "p4d.24xlarge", Instances: 2, HoursPerMonth: 200},
			model.Query{Pricing: model.OnDemand, Providers: []string{"aws"}, MaxNodes: 2, AllowMultiNode: true, HoursPerMonth: 200},
			`phase "big": offers ranked as the phase is priced (on-demand), on every provider the search allows; the phase rents p4d.24xlarge in aws (--providers aws keeps to it)`},
		{Phase{Name: "free", Pricing: model.Reserved1y}, model.Query{Pricing: model.Reserved1y, Providers: []string{"aws"}, MaxNodes: 1}, ""},
	} {
		got := tt.ph.Search(base)
		if got.Pricing != tt.want.Pricing || got.HoursPerMonth != tt.want.HoursPerMonth || got.MaxNodes != tt.want.MaxNodes || got.AllowMultiNode != tt.want.AllowMultiNode || len(got.Providers) != 1 {
			t.Errorf("%s: Search = %+v, want %+v", tt.ph.Name, got, tt.want)
		}
		if n := tt.ph.SearchNote().String(); n != tt.note {
			t.Errorf("%s: note %q, want %q", tt.ph.Name, n, tt.note)
		}
	}
}
