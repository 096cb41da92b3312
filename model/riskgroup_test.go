package model

import "testing"

// TestDropDominatedRisky: a borderline host is kept beside its group's
// fitting host (same provider, region and GPU) only when it is cheaper on
// the sort key, as the daytona 8×MI355X at $1,087 beside a fitting
// 2-node 7×MI355X at $1.2M (a new user's walk); one at the same or a
// higher figure is dropped, and other groups' borderline hosts stay. The
// order of what stays is kept.
func TestDropDominatedRisky(t *testing.T) {
	mi, h := &GPU{Key: "mi355x"}, &GPU{Key: "h100"}
	in := &Instance{Provider: "daytona"}
	offer := func(g *GPU, usd float64, risky bool) Offer {
		o := Offer{Instance: in, GPU: g, Region: "earth", HasJob: true, JobUSD: usd, JobHours: 1, Verdict: VerdictFits}
		if risky {
			o.Verdict = VerdictBorderline
		}
		return o
	}
	offers := []Offer{
		offer(mi, 1.2e6, false), // the group's fitting host
		offer(h, 5000, false),   // another group's
		offer(mi, 1087, true),   // far cheaper: kept
		offer(mi, 1.3e6, true),  // dearer than the fitting host: dropped
		offer(h, 4000, true),    // its group's fitting host costs more: kept
		offer(h, 5000, true),    // as much: dropped
	}
	got := dropDominatedRisky(offers, SortJob)
	want := []float64{1.2e6, 5000, 1087, 4000}
	if len(got) != len(want) {
		t.Fatalf("kept %d offers, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].JobUSD != w {
			t.Errorf("offer %d costs %v, want %v", i, got[i].JobUSD, w)
		}
	}
}
