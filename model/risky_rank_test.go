package model

import (
	"strings"
	"testing"
)

// TestRiskyOffersRankLast: a borderline offer (its memory range does
// not fit the GPU), whatever its chance of running out of memory, ranks
// after every offer that fits across its whole range, on every sort key,
// so it is never Offers[0] ("best:") while one that fits exists; the
// borderline ones rank among themselves by the key. Before, the first
// screen's best (QLoRA on Llama 3.1 8B) was a V100 with about a 40%
// chance of an OOM, cheapest by price; then (issue 30) a V100 16GB with
// about a 10% chance, when only chances above 10% ranked last.
func TestRiskyOffersRankLast(t *testing.T) {
	in := func(typ string) *Instance { return &Instance{Provider: "p", Type: typ} }
	e := &Estimate{}
	offers := []Offer{
		{Instance: in("risky40"), Verdict: VerdictBorderline, OOMChance: 0.40, USDPerHour: 0.5, MonthlyUSD: 365, JobHours: 1, JobUSD: 0.5, HasJob: true, HeadroomPct: 1, Estimate: e},
		{Instance: in("border10"), Verdict: VerdictBorderline, OOMChance: 0.11, USDPerHour: 1, MonthlyUSD: 730, JobHours: 2, JobUSD: 2, HasJob: true, HeadroomPct: 4, Estimate: e},
		{Instance: in("fits"), Verdict: VerdictFits, USDPerHour: 2, MonthlyUSD: 1460, JobHours: 3, JobUSD: 6, HasJob: true, HeadroomPct: 30, Estimate: e},
		{Instance: in("risky15"), Verdict: VerdictBorderline, OOMChance: 0.15, USDPerHour: 0.6, MonthlyUSD: 438, JobHours: 0.5, JobUSD: 0.3, HasJob: true, HeadroomPct: 2, Estimate: e},
	}
	want := map[SortKey]string{
		SortPrice:    "fits risky40 risky15 border10",
		SortMonthly:  "fits risky40 risky15 border10",
		SortJob:      "fits risky15 risky40 border10",
		SortTime:     "fits risky15 risky40 border10",
		SortHeadroom: "fits border10 risky15 risky40",
	}
	for _, k := range SortKeys {
		got := append([]Offer(nil), offers...)
		sortOffers(got, k)
		var order []string
		for _, o := range got {
			order = append(order, o.Instance.Type)
		}
		if s := strings.Join(order, " "); s != want[k] {
			t.Errorf("sort %s: %s, want %s (fits first, then the borderline by the key)", k, s, want[k])
		}
	}
	// Nothing fits across its range: the best borderline offer leads.
	only := append([]Offer(nil), offers[0], offers[1], offers[3])
	sortOffers(only, SortPrice)
	if only[0].Instance.Type != "risky40" {
		t.Errorf("all borderline, price sort: first %s, want risky40 (the cheapest)", only[0].Instance.Type)
	}
}
