package report

import (
	"fmt"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// Cut is Truncate on a terminal; on plain output (a pipe or a file) s is
// kept whole, so `gpuplan recommend | grep` finds names that can be pasted
// back into --instance.
func (r *Renderer) Cut(s string, n int) string {
	if r != nil && r.Plain {
		return s
	}
	return Truncate(s, n)
}

// plainOfferRows rewrites the instance and region cells of rows (built by
// CollapseRegions and OfferRow from offers) with the full names: the type
// whole, the region whole with its "+N" other regions.
func plainOfferRows(p *i18n.Printer, rows [][]string, offers []model.Offer, limit int) {
	row := 0
	for i := 0; i < len(offers) && row < len(rows) && row < limit; i++ {
		o := &offers[i]
		same := 0
		for i+1 < len(offers) && SameButRegion(&offers[i], &offers[i+1]) {
			i++
			same++
		}
		region := o.Region
		if same > 0 {
			region += fmt.Sprintf(" +%d", same)
		}
		// "未说明地点" in Chinese, as the table it rewrites (new-user walk);
		// "any of 17 regions" for Lambda's (walk49).
		region = OfferRegionCaveatIn(p, o.Instance.Provider, region)
		rows[row][1], rows[row][2] = o.Instance.Type, region
		row++
	}
}
