package model

import (
	"slices"
	"testing"
)

// TestLateTierOrder: by job cost, an offer that meets the deadline at the
// slow end of its range ranks first; of the late ones (the deadline
// inside the range), one whose expected time meets the deadline ranks
// before a cheaper one expected to miss it (walk48: with a 5 h deadline
// no offer was sure to meet, best: was 6.9 h at $13.69, 85% likely to
// miss, before 3.1 h at $15.06); a risky offer after all of them.
func TestLateTierOrder(t *testing.T) {
	in := func(name string) *Instance { return &Instance{Provider: "p", Type: name} }
	offer := func(name string, hours, usd, late float64) Offer {
		return Offer{Instance: in(name), Region: "r", HasJob: true, JobHours: hours, JobUSD: usd, USDPerHour: usd / hours,
			LateChance: late, DeadlineHours: 5, Verdict: VerdictFits}
	}
	offers := []Offer{
		offer("expected-late", 6.9, 13.69, 0.85),
		offer("expected-on-time", 3.1, 15.06, 0.10),
		offer("sure", 2.0, 20.00, 0),
		offer("risky", 1.0, 1.00, 0),
	}
	offers[2].LateChance, offers[2].DeadlineHours = 0, 0
	offers[3].Verdict, offers[3].OOMChance = VerdictBorderline, 0.2
	for _, k := range []SortKey{SortJob, SortPrice} {
		got := slices.Clone(offers)
		slices.SortFunc(got, func(a, b Offer) int { return compareOffers(&a, &b, k) })
		var names []string
		for i := range got {
			names = append(names, got[i].Instance.Type)
		}
		if want := []string{"sure", "expected-on-time", "expected-late", "risky"}; !slices.Equal(names, want) {
			t.Errorf("%s: %v, want %v", k, names, want)
		}
		for i := range got {
			if tier := offerTier(&got[i]); i > 0 && tier < offerTier(&got[i-1]) {
				t.Errorf("%s: offerTier of %s (%d) below the one before it", k, got[i].Instance.Type, tier)
			}
		}
	}
}
