package report

import (
	"strings"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// SiblingList names the variants a GPU query left out (market.Siblings)
// with their offers, in lang: "A100-80GB (10 offers), …". gpuplan
// offers' note and the configurator's market browser say it alike.
func SiblingList(lang *i18n.Printer, sibs []market.Sibling) string {
	parts := make([]string, len(sibs))
	for i, s := range sibs {
		// "%s (%s)" and ", " go through the catalogue: a Chinese line takes
		// full-width brackets and 、 (a new user's walk: "H100-PCIe-80GB (5
		// 个报价)").
		parts[i] = lang.Sprintf("%s (%s)", s.Ask, lang.Sprintf("%d "+model.Plural(s.Offers, "offer"), s.Offers))
	}
	return strings.Join(parts, lang.T(", "))
}
