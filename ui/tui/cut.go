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
// "…E_80GB::1". Start and end made primeintellect's
// datacrunch__1xRTX6000Ada_48GB__10__60 "datacru…10__60" in the panel, no
// GPU in it (new-user walk): a name keeps first the part where it parts
// from its nearest name (distinctCut). Titles and whole lines are still
// cut at the end (report.Truncate).

// cutColumn cuts each of cells to at most n cells, in place, "…" where
// the cut is. A name first keeps its distinguishing part (distinctCut)
// where its start and end would lose it; else, or when that reads as
// another name's cut, it keeps its start and end (the middle goes) unless
// that reads as another name's cut; it then keeps only its end, then only
// its start, then the other splits from the middle out: the first that
// reads as no other name's cut the same way. When none does (the width is
// too small), it takes the cut the fewest names share, one no name before
// it took if it can. region marks a region column, whose " +N" (more
// regions at one price, report.CollapseRegions) is never cut.
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
	// A name's distinguishing part (distinctCut) is its cut when no other
	// name cuts the same way by it or by split 0; then, for the names
	// whose cut another shares, with the start's first cells. The splits
	// below count such cuts as taken.
	var taken []string
	if !region {
		parts := make([]parted, len(names))
		for i, name := range names {
			parts[i] = nameParts(name)
		}
		at := distinctParts(parts, cells)
		for _, headed := range []bool{false, true} {
			cuts := make([]string, len(names))
			first := map[string]int{} // each name's cut: distinctCut's, else split 0's
			for _, c := range taken {
				first[c]++
			}
			for i, name := range names {
				if own[i] {
					continue
				}
				c, ok := distinctCut(&parts[i], at[i], n, headed)
				if ok {
					cuts[i] = c
				} else {
					c, _ = cutCell(name, n, 0, false)
				}
				first[c]++
			}
			for i, c := range cuts {
				if c != "" && first[c] == 1 {
					best[i], own[i] = c, true
					taken = append(taken, c)
				}
			}
		}
	}
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
		for _, c := range taken {
			count[c]++
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
	// The end, a rune at a time: a wide rune that does not fit is left out.
	head, from := cutBounds(s, n, tail)
	return s[:head] + "…" + s[from:], ok
}

// nameSeparators split a name into parts (nameParts): instance types
// join their words with them ("datacrunch__1xA100_80GB__22__120",
// "n1-standard-8+2xV100", "BM.GPU.A100-v2.8", "H100_PCIE_80GB::1").
const nameSeparators = "_-.:+/ "

// nameParts splits s into parts: the runs of text between runs of
// nameSeparators, as byte offsets where each starts and ends.
func nameParts(s string) parted {
	p := parted{s: s}
	in := false
	for i, r := range s {
		sep := strings.ContainsRune(nameSeparators, r)
		switch {
		case !sep && !in:
			p.start, in = append(p.start, i), true
		case sep && in:
			p.end, in = append(p.end, i), false
		}
	}
	if in {
		p.end = append(p.end, len(s))
	}
	return p
}

// parted is a name and where its parts start and end (nameParts).
type parted struct {
	s          string
	start, end []int
}

// distinctParts returns, for each of names, the index of its
// distinguishing part: past the most leading parts it shares with another
// of cells (its start through a part's end is another's too); 0 when it
// differs from them all in its first part, len(start) when it starts
// another. One pass over cells' parts: a column may hold 100,000 offers of
// a CSV overlay, which comparing each name with each other would not.
func distinctParts(names []parted, cells []string) []int {
	shared := map[string]int{} // a start through a part's end: how many distinct cells have it
	seen := map[string]bool{}
	for _, c := range cells {
		if seen[c] {
			continue
		}
		seen[c] = true
		p := nameParts(c)
		for _, e := range p.end {
			shared[c[:e]]++
		}
	}
	at := make([]int, len(names))
	for i := range names {
		n := &names[i]
		for k, e := range n.end {
			if shared[n.s[:e]] < 2 {
				break
			}
			at[i] = k + 1
		}
	}
	return at
}

// minHead is the fewest cells of a name's start that distinctCut's headed
// cut keeps: fewer read as noise ("ma…").
const minHead = 4

// distinctCut cuts name to n cells around its distinguishing part, at
// (distinctParts): the first part (nameParts) in which it differs from
// each name of its column that starts with the same parts. A
// marketplace type starts with the cloud behind it and ends with sizes,
// so the start and end that split 0 keeps ("datacru…22__120") name no
// GPU; its distinguishing part is the one after the cloud, "1xA100". The
// cut is, of these, the first that holds the part whole:
//
//   - the start through the part, then as many whole parts as fit, "…"
//     after ("1x_RTX6000Ada…" of runpod's 1x_RTX6000Ada_SECURE at 14);
//   - "…" and the end, from the part on (cutName's split 1,
//     "…-8+2xV100" of n1-standard-8+2xV100 beside n1-standard-16+4xV100);
//   - "…", the part and as many whole parts after it as fit, "…"
//     ("…1xA100_80GB…" of datacrunch__1xA100_80GB__22__120 at 14).
//
// headed asks instead for the start's first cells before the part, at
// least minHead of them, and the whole parts after it that leave them
// ("datacr…1xA100…"): what tells apart two clouds' offers of one GPU.
//
// ok is false, and the cut "", when the name differs from the column's
// others in its first part or in none (a name that starts another), when split 0
// (cutName) keeps the part whole already, and when no cut holds it: the
// splits then decide, as before.
func distinctCut(name *parted, at, n int, headed bool) (cut string, ok bool) {
	s, w := name.s, ansi.StringWidth
	if at == 0 || at >= len(name.start) || w(s) <= n || n < 4 {
		return "", false
	}
	a, b := name.start[at], name.end[at] // the part's bytes
	// Split 0 keeps the part when it lies in its start or in its end.
	if head, tail := cutBounds(s, n, (n-1)/2); b <= head || a >= tail {
		return "", false
	}
	// the window: the part and the whole parts after it that fit in room
	// cells with a "…" before it and, unless it ends the name, after it
	window := func(room int) (string, bool) {
		fits := func(last int) bool {
			c := 1 + w(s[a:name.end[last]])
			if last < len(name.start)-1 {
				c++
			}
			return c <= room
		}
		if !fits(at) {
			return "", false
		}
		last := at
		for last+1 < len(name.start) && fits(last+1) {
			last++
		}
		if last < len(name.start)-1 {
			return "…" + s[a:name.end[last]] + "…", true
		}
		return "…" + s[a:], true
	}
	if headed {
		if w(s[:b])+1 <= n { // the start is whole already (below)
			return "", false
		}
		win, ok := window(n - minHead)
		if !ok {
			return "", false
		}
		return ansi.Truncate(s, n-w(win), "") + win, true
	}
	// The start through the part, and the whole parts after it that fit.
	if w(s[:b])+1 <= n {
		last := at
		for last+1 < len(name.start) && w(s[:name.end[last+1]])+1 <= n {
			last++
		}
		return s[:name.end[last]] + "…", true
	}
	// The end, from the part on: split 1.
	if w(s[a:])+1 <= n {
		c, _ := cutName(s, n, 1)
		return c, true
	}
	// The part in the middle, and the whole parts after it that fit.
	return window(n)
}

// cutBounds is where cutName's cut of s to n cells keeping tail cells of
// its end falls: s[:head] is kept before the "…", s[tail:] after it.
func cutBounds(s string, n, tail int) (head, from int) {
	head = len(ansi.Truncate(s, n-1-tail, ""))
	from, cells := len(s), 0
	for from > 0 {
		_, size := utf8.DecodeLastRuneInString(s[:from])
		c := ansi.StringWidth(s[from-size : from])
		if cells+c > tail {
			break
		}
		cells += c
		from -= size
	}
	return head, from
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
