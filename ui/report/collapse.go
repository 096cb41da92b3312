package report

import "github.com/gpuplan/gpuplan/model"

// RegionRuns finds the first n runs of offers that differ only by region
// (SameButRegion: one instance type, GPU count and price in several
// regions; the ranking puts them next to each other): starts[k] is the
// index of run k's first offer, lens[k] how many offers it stands for.
// n < 0 finds every run. CollapseRegions and the configurator's offers
// list both collapse with it, so "+N regions" means the same everywhere.
func RegionRuns(offers []model.Offer, n int) (starts, lens []int) {
	for i := 0; i < len(offers) && (n < 0 || len(starts) < n); i++ {
		start := i
		for i+1 < len(offers) && SameButRegion(&offers[i], &offers[i+1]) {
			i++
		}
		starts, lens = append(starts, start), append(lens, i-start+1)
	}
	return starts, lens
}

// ShowsCurrency reports whether a table of the first limit rows of offers
// (0: all; regions at one price share a row, RegionRuns) lists an offer
// priced in currency, so a line about its conversion is said only under
// a table that shows one.
func ShowsCurrency(offers []model.Offer, limit int, currency string) bool {
	n := len(offers)
	if limit > 0 {
		starts, lens := RegionRuns(offers, limit)
		n = 0
		if k := len(starts); k > 0 {
			n = starts[k-1] + lens[k-1]
		}
	}
	for i := range offers[:n] {
		if offers[i].Instance.PriceCurrency() == currency {
			return true
		}
	}
	return false
}
