package report

import (
	"slices"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/termsafe"
)

// OverlayMark follows a price in a table when an overlay file (catalog
// update's or the user's: catalog.d, --catalog) set it, as ↺ follows a
// precision the GPU runs instead; overlayLegend names the files under
// the table.
const OverlayMark = "*"

// priceFrom is where one shown price came from (model.PriceProvenance).
type priceFrom struct{ source, origin, asOf string }

// overlayPrices collects the provenance of prices set by overlays, once
// each in the order added.
type overlayPrices struct {
	seen map[priceFrom]bool
	list []priceFrom
}

// add records the price's provenance and reports whether an overlay set
// it (its cell gets OverlayMark).
func (ps *overlayPrices) add(source, origin, asOf string) bool {
	if !model.FromOverlay(origin) {
		return false
	}
	k := priceFrom{source, origin, asOf}
	if !ps.seen[k] {
		if ps.seen == nil {
			ps.seen = map[priceFrom]bool{}
		}
		ps.seen[k] = true
		ps.list = append(ps.list, k)
	}
	return true
}

// maxOverlayLines bounds the legend: a catalog update writes one file per
// provider, and the JSON names every row's.
const maxOverlayLines = 3

// legend is the lines under a table that name the overlays behind the
// marked prices, mark first: "* price from overlay neg.toml (our 2026
// agreement, as of 2026-12-05)"; nil when no price is marked.
func (ps *overlayPrices) legend(p *i18n.Printer, mark string) []string {
	var out []string
	for i, f := range ps.list {
		if i == maxOverlayLines {
			out = append(out, p.Sprintf("%s and %d more (source, origin and as_of of each row in --json)", mark, len(ps.list)-i))
			break
		}
		out = append(out, OverlayNote(p, mark, f.source, f.origin, f.asOf))
	}
	return out
}

// OverlayNote is the legend's line for one overlay price, mark first: "*
// price from overlay neg.toml (our 2026 agreement, as of 2026-12-05)". A
// file name or source is the user's or a server's: escaped as every error
// line escapes it (termsafe), not left to the renderer, which drops an
// escape sequence's bytes without a trace.
func OverlayNote(p *i18n.Printer, mark, source, origin, asOf string) string {
	if source == origin || source == "" {
		return p.Sprintf("%s price from overlay %s (as of %s)", mark, termsafe.String(origin), termsafe.String(asOf))
	}
	return p.Sprintf("%s price from overlay %s (%s, as of %s)", mark, termsafe.String(origin), termsafe.String(source), termsafe.String(asOf))
}

// markPrices appends OverlayMark to column col of the marked rows and a
// space to the others, so the column's figures stay aligned.
func markPrices(rows [][]string, col int, marked []bool) {
	if !slices.Contains(marked, true) {
		return
	}
	for i := range rows {
		if marked[i] {
			rows[i][col] += OverlayMark
		} else {
			rows[i][col] += " "
		}
	}
}
