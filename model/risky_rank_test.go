package model

import "testing"

// TestRiskyOffersRankLast: a borderline offer whose rounded chance of
// running out of memory is above RiskyOOMChance ranks after every offer
// that fits, on every sort key, so it is never Offers[0] ("best:") while
// one that fits exists; a 10% one ranks by price as a fitting one does.
// Before, the first screen's best (QLoRA on Llama 3.1 8B) was a V100 with
// about a 40% chance of an OOM, cheapest by price.
func TestRiskyOffersRankLast(t *testing.T) {
	in := func(typ string) *Instance { return &Instance{Provider: "p", Type: typ} }
	e := &Estimate{}
	offers := []Offer{
		{Instance: in("risky40"), Verdict: VerdictBorderline, OOMChance: 0.40, USDPerHour: 0.5, MonthlyUSD: 365, JobHours: 1, JobUSD: 0.5, HasJob: true, HeadroomPct: 1, Estimate: e},
		{Instance: in("border10"), Verdict: VerdictBorderline, OOMChance: 0.11, USDPerHour: 1, MonthlyUSD: 730, JobHours: 2, JobUSD: 2, HasJob: true, HeadroomPct: 4, Estimate: e},
		{Instance: in("fits"), Verdict: VerdictFits, USDPerHour: 2, MonthlyUSD: 1460, JobHours: 3, JobUSD: 6, HasJob: true, HeadroomPct: 30, Estimate: e},
		{Instance: in("risky15"), Verdict: VerdictBorderline, OOMChance: 0.15, USDPerHour: 0.6, MonthlyUSD: 438, JobHours: 0.5, JobUSD: 0.3, HasJob: true, HeadroomPct: 2, Estimate: e},
	}
	for _, k := range SortKeys {
		got := append([]Offer(nil), offers...)
		sortOffers(got, k)
		var order []string
		for _, o := range got {
			order = append(order, o.Instance.Type)
		}
		// border10 rounds to 10%: not risky. The two risky ones last, by the key.
		if order[2] != "risky15" && order[2] != "risky40" || order[3] != "risky15" && order[3] != "risky40" {
			t.Errorf("sort %s: %v, want the risky offers (40%%, 15%%) after those that fit", k, order)
		}
		if k == SortPrice && (order[0] != "border10" || order[1] != "fits") {
			t.Errorf("sort price: %v, want border10 (10%%, not risky) then fits", order)
		}
	}
}
