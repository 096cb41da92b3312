package plan

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestCheckPlan: each phase's offer against the test catalog, by hand:
// small.1 is $1/h on demand and $0.5 spot in us-east-1, huge.8 $80 with a
// 25% reserved-1y discount ($60), old.1 retired on 2025-01-01.
func TestCheckPlan(t *testing.T) {
	cat := modeltest.Catalog()
	cat.AsOf = "2026-11-30"
	phase := func(name, provider, typ, region string, p model.Pricing, n int, usd float64) Phase {
		return Phase{Name: name, Provider: provider, Instance: typ, Region: region, Pricing: p, Instances: n, USDPerHour: usd, JobHours: 1}
	}
	pl := Plan{Phases: []Phase{
		phase("as listed", "p1", "small.1", "us-east-1", model.OnDemand, 1, 1),
		phase("two, within 1%", "p1", "small.1", "us-east-1", model.Spot, 2, 1.009),
		phase("reserved as listed", "p2", "huge.8", "us-east-1", model.Reserved1y, 1, 60),
		phase("cheaper than listed", "p1", "small.1", "eu-west-1", model.OnDemand, 1, 0.5),
		phase("typo", "p1", "smal.1", "us-east-1", model.OnDemand, 1, 1),
		phase("provider typo", "pp1", "small.1", "us-east-1", model.OnDemand, 1, 1),
		phase("far off", "nothing-like-it", "x", "us-east-1", model.OnDemand, 1, 1),
		phase("retired", "p2", "old.1", "us-east-1", model.OnDemand, 1, 0.01),
		phase("wrong region", "p1", "big.8", "eu-west-1", model.OnDemand, 1, 8),
		phase("no spot", "p1", "big.8", "us-east-1", model.Spot, 1, 3),
		phase("no offer", "", "", "", "", 0, 3),
		phase("no region, two priced", "p1", "small.1", "", model.OnDemand, 1, 0.9),
		phase("no region, one priced", "p1", "big.8", "", model.OnDemand, 1, 8),
		phase("no region, none spot", "p1", "big.8", "", model.Spot, 1, 8),
	}}
	got := Check(cat, &pl)
	want := []string{
		`phase "cheaper than listed": the plan prices p1 small.1 in eu-west-1 (on-demand) at $0.5/h; the catalog (as of 2026-11-30) says $0.9/h`,
		`phase "typo": p1 smal.1 is not in the catalog (as of 2026-11-30): the plan's price for it is unchecked; did you mean p1 small.1 or p1 mid.1?`,
		`phase "provider typo": pp1 small.1 is not in the catalog (as of 2026-11-30): the plan's price for it is unchecked; did you mean p1 small.1?`, // not p2: two of pp1's three letters changed (Closest's threshold)
		`phase "far off": nothing-like-it x is not in the catalog (as of 2026-11-30): the plan's price for it is unchecked`,
		`phase "retired": p2 old.1 was retired on 2025-01-01`,
		`phase "wrong region": the catalog has no price for p1 big.8 in eu-west-1`,
		`phase "no spot": the catalog has no spot price for p1 big.8 in us-east-1`,
		`phase "no offer" names no offer (provider and instance): the plan's price for it is unchecked`,
		`phase "no region, two priced" names no region: the plan's price for it is unchecked; add region = "eu-west-1" (the cheapest the catalog prices p1 small.1 in; also priced in us-east-1)`,
		`phase "no region, one priced" names no region: the plan's price for it is unchecked; add region = "us-east-1", the one region the catalog prices p1 big.8 in`,
		`phase "no region, none spot" names no region, and the catalog has no spot price for p1 big.8 in any: the plan's price for it is unchecked`,
	}
	if len(got) != len(want) {
		var s []string
		for _, m := range got {
			s = append(s, m.String())
		}
		t.Fatalf("%d notes, want %d:\n%s", len(got), len(want), strings.Join(s, "\n"))
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Errorf("note %d:\n got %s\nwant %s", i, got[i].String(), want[i])
		}
	}
}
