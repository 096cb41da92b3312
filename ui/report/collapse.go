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
