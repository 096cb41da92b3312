package tui

import (
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
)

// Cutting names to fit a table column: every table on screen cuts its
// name cells with cutColumn, so that names that differ stay different
// once cut where the width allows. Cutting the end made lambda's
// gpu_8x_v100 and gpu_8x_v100_n both read "gpu_8x_v1…" (trial L5);
// cutting the middle alone makes GCP's n1-standard-8+2xV100 and
// n1-standard-16+4xV100 both "n1-st…V100", and keeping the end makes
// fluidstack's H100_PCIE_80GB::1 and A100_PCIE_80GB::1 both
// "…E_80GB::1". Titles and whole lines are still cut at the end
// (report.Truncate).

// cutColumn cuts each of cells to at most n cells, in place, "…" where
// the cut is. A name keeps its start and end (the middle goes) unless that
// reads as another name's cut; it then keeps only its end, then only its
// start, then the other splits from the middle out: the first that reads
// as no other name's cut the same way. When none does (the width is too
// small), it takes the cut the fewest names share, one no name before it
// took if it can. region marks a region column, whose " +N" (more regions
// at one price, report.CollapseRegions) is never cut.
func cutColumn(cells []string, n int, region bool) {
	var names []string // the distinct names too wide, in order
	for _, c := range cells {
		if ansi.StringWidth(c) > n && !slices.Contains(names, c) {
			names = append(names, c)
		}
	}
	if len(names) == 0 {
		return
	}
	best := make([]string, len(names))
	own := make([]bool, len(names))
	var tried [][]string // tried[k][i]: names[i] cut by split k, for the names with no split of their own
	count := make(map[string]int, len(names))
	var counts []map[string]int
	for k := 0; ; k++ {
		clear(count)
		more := false
		cut := make([]string, len(names))
		for i, name := range names {
			var ok bool
			cut[i], ok = cutCell(name, n, k, region)
			more = more || ok
			count[cut[i]]++
		}
		if !more {
			break // every name is past its last split
		}
		done := true
		for i := range names {
			if !own[i] && count[cut[i]] == 1 {
				best[i], own[i] = cut[i], true
			}
			done = done && own[i]
		}
		if done {
			break
		}
		tried, counts = append(tried, cut), append(counts, maps.Clone(count))
	}
	used := map[string]bool{}
	for i := range names {
		if own[i] {
			used[best[i]] = true
		}
	}
	for i := range names {
		if own[i] {
			continue
		}
		pick := -1
		for k := range tried {
			c := tried[k][i]
			if pick < 0 {
				pick = k
				continue
			}
			p := tried[pick][i]
			if counts[k][c] < counts[pick][p] || counts[k][c] == counts[pick][p] && used[p] && !used[c] {
				pick = k
			}
		}
		best[i] = tried[pick][i]
		used[best[i]] = true
	}
	for j, c := range cells {
		if i := slices.Index(names, c); i >= 0 {
			cells[j] = best[i]
		}
	}
}

// cutCell cuts one cell by split k (cutName); ok is false past its last
// split, where it gives split 0.
func cutCell(s string, n, k int, region bool) (string, bool) {
	if region {
		base, more, found := strings.Cut(s, " +")
		if found && ansi.StringWidth(s) > n {
			suffix := " +" + more
			c, ok := cutName(base, max(n-ansi.StringWidth(suffix), 4), k)
			return c + suffix, ok
		}
	}
	return cutName(s, n, k)
}

// cutName cuts s to at most n cells, "…" marking where: split 0 keeps
// the start and the end (the start gets the odd cell: it names the
// family), 1 the end only, 2 the start only, then the other splits of
// n−1 cells from the middle out. ok is false past the last split (or
// when s fits), and the cut is then split 0's.
func cutName(s string, n, k int) (string, bool) {
	w := ansi.StringWidth(s)
	if w <= n {
		return s, k == 0
	}
	if n < 4 { // no room for both ends
		return ansi.Truncate(s, n, "…"), k == 0
	}
	tail, ok := splitTail(n-1, k)
	if !ok {
		tail = (n - 1) / 2
	}
	head := ansi.Truncate(s, n-1-tail, "")
	i, cells := len(s), 0 // the end, a rune at a time: a wide rune that does not fit is left out
	for i > 0 {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		c := ansi.StringWidth(s[i-size : i])
		if cells+c > tail {
			break
		}
		cells += c
		i -= size
	}
	return head + "…" + s[i:], ok
}

// splitTail is the cells of m kept at the end by split k (cutName's
// order), and whether there is a split k.
func splitTail(m, k int) (int, bool) {
	mid := m / 2
	switch k {
	case 0:
		return mid, true
	case 1:
		return m, true
	case 2:
		return 0, true
	}
	// 3, 4, …: mid+1, mid−1, mid+2, mid−2, … within 1..m−1, skipping mid
	for d, seen := 1, 3; d < m; d++ {
		for _, t := range []int{mid + d, mid - d} {
			if t >= 1 && t <= m-1 {
				if seen == k {
					return t, true
				}
				seen++
			}
		}
	}
	return 0, false
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

// shortenRegions writes the region cells (column region of rows, nil rows
// passed over) wider than width as report.ShortRegionIn does: "any of 17
// regions" as "any of 17" before cutTable would make it "any …ions".
func shortenRegions(lang *i18n.Printer, rows [][]string, region, width int) {
	if region < 0 {
		return
	}
	for _, r := range rows {
		if r != nil && ansi.StringWidth(r[region]) > width {
			r[region] = report.ShortRegionIn(lang, r[region])
		}
	}
}

// nodesFloor is the fewest cells the GPUs cells of offers (cells[i] is
// offers[i]'s) take with their counts and nodes whole: each multi-node
// cell without its precision note, its GPU's name cut to 2 cells; 0 when
// no offer rents several instances.
func nodesFloor(cells []string, offers []*model.Offer) int {
	floor := 0
	for i, c := range cells {
		if o := offers[i]; o.Instances > 1 {
			c, _, _ = strings.Cut(c, " ↺")
			floor = max(floor, ansi.StringWidth(c)-ansi.StringWidth(o.GPU.Key)+2)
		}
	}
	return floor
}
