package model

import (
	"math"
	"testing"
)

// TestTryFirst: the risky offer ahead (RiskyAhead) is worth trying first
// (TryFirst) when its figure on the sort key is at most half the first
// offer's and at most 1 − its chance of running out of memory of it; the
// ranking keeps the offer that fits first. New-user walk: a 70B
// fine-tune's best was 14 MI355X over two nodes, 1.2 years and $1.2M,
// while 8 MI355X on one node, borderline at about 10%, ran it in 17 h
// for $1,167, named only under the table.
func TestTryFirst(t *testing.T) {
	in := func(typ string) *Instance { return &Instance{Provider: "p", Type: typ} }
	e := &Estimate{}
	fits := func(usd, hours float64) Offer {
		return Offer{Instance: in("fits"), Verdict: VerdictFits, USDPerHour: usd / hours, MonthlyUSD: usd / hours * 730, JobUSD: usd, JobHours: hours, HasJob: true, HeadroomPct: 17, Estimate: e}
	}
	risky := func(usd, hours, chance float64) Offer {
		return Offer{Instance: in("risky"), Verdict: VerdictBorderline, OOMChance: chance, USDPerHour: usd / hours, MonthlyUSD: usd / hours * 730, JobUSD: usd, JobHours: hours, HasJob: true, HeadroomPct: 2, Estimate: e}
	}
	tests := []struct {
		name   string
		sort   SortKey
		offers []Offer
		want   float64 // the share; 0: none to try first
	}{
		{name: "walk: $1,167 of $1.2M at 10%", sort: SortJob, offers: []Offer{fits(1.2e6, 10512), risky(1167, 17, 0.10)}, want: 1167 / 1.2e6},
		{name: "$40 of $100 at 10%: 0.4 ≤ min(0.5, 0.9)", sort: SortJob, offers: []Offer{fits(100, 10), risky(40, 10, 0.10)}, want: 0.4},
		{name: "$50 of $100 at 10%: exactly half", sort: SortJob, offers: []Offer{fits(100, 10), risky(50, 10, 0.10)}, want: 0.5},
		{name: "$60 of $100 at 10%: cheaper, not half", sort: SortJob, offers: []Offer{fits(100, 10), risky(60, 10, 0.10)}},
		{name: "$40 of $100 at 65%: 0.4 > 1 − 0.65", sort: SortJob, offers: []Offer{fits(100, 10), risky(40, 10, 0.65)}},
		{name: "$30 of $100 at 65%: 0.3 ≤ 0.35", sort: SortJob, offers: []Offer{fits(100, 10), risky(30, 10, 0.65)}, want: 0.3},
		{name: "time: 17 h of 100 h", sort: SortTime, offers: []Offer{fits(100, 100), risky(200, 17, 0.10)}, want: 0.17},
		{name: "price: $2/h of $8/h", sort: SortPrice, offers: []Offer{fits(80, 10), risky(20, 10, 0.05)}, want: 0.25},
		{name: "headroom ranks no risky offer ahead", sort: SortHeadroom, offers: []Offer{fits(100, 10), risky(10, 10, 0.10)}},
		{name: "the first is risky itself: nothing fits across its range", sort: SortJob, offers: []Offer{risky(10, 10, 0.10), risky(40, 10, 0.10)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Recommendation{Offers: tt.offers, Sort: tt.sort}
			o, at, share := r.TryFirst()
			if tt.want == 0 {
				if o != nil {
					t.Errorf("TryFirst() = rank %d, share %.3g; want none", at, share)
				}
				return
			}
			if o == nil || at != 1 || math.Abs(share-tt.want) > 1e-9 {
				t.Errorf("TryFirst() = %v, %d, %.4g; want the risky offer at 1, share %.4g", o != nil, at, share, tt.want)
			}
		})
	}
}
