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

// OffersInRows returns how many of offers the first limit rows of a table
// hold (regions at one price share a row, RegionRuns); all of them for
// limit ≤ 0. --limit counts rows in every format, so the JSON and CSV of
// --limit 5 list the regions of the five rows the table shows (a new
// user's walk: the JSON's fourth and fifth offers were the third row's
// other regions, and the table's last two rows were missing).
func OffersInRows(offers []model.Offer, limit int) int {
	if limit <= 0 {
		return len(offers)
	}
	starts, lens := RegionRuns(offers, limit)
	if k := len(starts); k > 0 {
		return starts[k-1] + lens[k-1]
	}
	return 0
}

// ShowsCurrency reports whether a table of the first limit rows of offers
// (0: all; regions at one price share a row, RegionRuns) lists an offer
// priced in currency, so a line about its conversion is said only under
// a table that shows one.
func ShowsCurrency(offers []model.Offer, limit int, currency string) bool {
	n := OffersInRows(offers, limit)
	for i := range offers[:n] {
		if offers[i].Instance.PriceCurrency() == currency {
			return true
		}
	}
	return false
}
