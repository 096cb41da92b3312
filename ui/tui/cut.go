package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Cutting names to fit a table column: every table on screen cuts its
// name cells with cutColumn, so that names that differ stay different
// once cut. Cutting the end made lambda's gpu_8x_v100 and gpu_8x_v100_n
// both read "gpu_8x_v1…" (trial L5); cutting the middle alone makes GCP's
// n1-standard-8+2xV100 and n1-standard-16+4xV100 both "n1-st…V100".
// Titles and whole lines are still cut at the end (report.Truncate).

// cutStyle is where a cell loses its cells for "…".
type cutStyle int

const (
	cutMiddle cutStyle = iota // the start and the end kept: family and variant
	cutStart                  // the end kept: the part GCP's and AWS's names vary in
	cutEnd                    // the start kept, as report.Truncate cuts
)

// cutStyles is the order cutColumn tries them in.
var cutStyles = []cutStyle{cutMiddle, cutStart, cutEnd}

// cutColumn cuts each of cells to at most n cells, in place, with the
// first cutStyle that keeps distinct cells distinct (the middle unless
// that merges two; when none keeps them all apart, the middle). region
// marks a region column, whose " +N" (more regions at one price,
// report.CollapseRegions) is never cut.
func cutColumn(cells []string, n int, region bool) {
	over := false
	for _, c := range cells {
		if ansi.StringWidth(c) > n {
			over = true
			break
		}
	}
	if !over {
		return
	}
	out := make([]string, len(cells))
	seen := make(map[string]string, len(cells)) // cut → whole
	for _, how := range cutStyles {
		clear(seen)
		apart := true
		for i, c := range cells {
			out[i] = cutCell(c, n, how, region)
			if whole, ok := seen[out[i]]; ok && whole != c {
				apart = false
				break
			}
			seen[out[i]] = c
		}
		if apart {
			copy(cells, out)
			return
		}
	}
	for i, c := range cells {
		cells[i] = cutCell(c, n, cutMiddle, region)
	}
}

// cutCell cuts one cell as cutColumn does.
func cutCell(s string, n int, how cutStyle, region bool) string {
	if region {
		base, more, ok := strings.Cut(s, " +")
		if ok && ansi.StringWidth(s) > n {
			suffix := " +" + more
			return cutName(base, max(n-ansi.StringWidth(suffix), 4), how) + suffix
		}
	}
	return cutName(s, n, how)
}

// cutName cuts s to at most n cells, "…" marking where.
func cutName(s string, n int, how cutStyle) string {
	w := ansi.StringWidth(s)
	if w <= n {
		return s
	}
	if how == cutEnd || n < 4 { // no room for both ends
		return ansi.Truncate(s, n, "…")
	}
	tail := n - 1
	if how == cutMiddle {
		tail = (n - 1) / 2 // the start gets the odd cell: it names the family
	}
	head := ansi.Truncate(s, n-1-tail, "")
	rs := []rune(s) // the end, a rune at a time: a wide rune that does not fit is left out
	i, cells := len(rs), 0
	for ; i > 0; i-- {
		c := ansi.StringWidth(string(rs[i-1]))
		if cells+c > tail {
			break
		}
		cells += c
	}
	return head + "…" + string(rs[i:])
}

// cutTable cuts rows' cells to widths[c], column by column (cutColumn);
// nil rows (a browser's group lines) are passed over. region is the
// region column's index, or -1.
func cutTable(rows [][]string, widths []int, region int) {
	col := make([]string, 0, len(rows))
	for c, w := range widths {
		col = col[:0]
		for _, r := range rows {
			if r != nil {
				col = append(col, r[c])
			}
		}
		cutColumn(col, w, c == region)
		k := 0
		for _, r := range rows {
			if r != nil {
				r[c] = col[k]
				k++
			}
		}
	}
}
