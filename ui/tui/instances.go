package tui

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/table"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
)

// sortCycle is the order the sort key steps through.
var sortCycle = []model.SortKey{model.SortPrice, model.SortMonthly, model.SortJob, model.SortHeadroom}

// offersView is the full-height table of every offer. The ranking is the
// answers' own (recommend --config gives the same); the provider filter
// only narrows what is shown.
type offersView struct {
	st            *report.Styles
	table         table.Model
	all           []model.Offer // in ranked order: the real offers, which selected returns (a, ctrl+e, enter)
	disp          []model.Offer // all as the rows show them (result.shownOffers): under spot, at the expected job figures; parallel to all
	spotNote      string        // under the table: what the spot rows' job columns hold (report.SpotShownNote), or ""
	shown         []int         // indexes into all, after the provider filter
	more          []int         // per shown offer: the other regions at its price, collapsed into it ("+N")
	allRegions    bool          // one row per region: nothing collapsed (r)
	sort          model.SortKey
	resorted      bool   // s changed the sort: the next result opens on its first (best) offer
	request       string // the request (requestKey) the cursor was placed on: another one opens on its best offer
	provider      string // "" shows all
	problem       string // why there is no ranking: an answer does not parse or validate
	where         string // the question page to fix it on, when known
	none          string // when nothing passed: how many offers each check removed
	width, height int
	serving       bool          // the offers are serving plans (headers)
	perToken      bool          // serving ranked per million output tokens, not per hour of the load (serve.Serving.PerToken)
	tpot          []float64     // serving: each offer's TPOT in ms, in the last column (headroom is vLLM's constant)
	ray           []bool        // serving: each offer's replica spans instances (serve.Plan.NoExport): "§", not exported
	lang          *i18n.Printer // the table's language (nil: English)
	note          string        // under the table, a line each: why rows have a "~" job time (report.LateNoteShort), a cheaper offer ranked after (report.RiskyAheadNoteShort)
}

func newOffersView(st *report.Styles, keys table.KeyMap) offersView {
	v := offersView{st: st, table: table.New(table.WithFocused(true), table.WithKeyMap(keys))}
	v.restyle()
	return v
}

// restyle takes the table's styles from v.st (again, after the background
// changed them).
func (v *offersView) restyle() {
	v.table.SetStyles(table.Styles{Header: v.st.TableHeader, Cell: v.st.TableCell, Selected: v.st.TableSelected})
}

// setResult shows new offers, keeping the cursor on the same offer when
// it is still there and the request is the same (never on a stale row):
// a new request opens on its best offer, which a (add a phase) then takes.
func (v *offersView) setResult(r *result) {
	req := requestKey(r)
	var keep *model.Offer
	if o := v.selected(); o != nil && !(v.resorted && r != nil) && req == v.request {
		c := *o
		keep = &c
	}
	if req != v.request {
		v.request = req
		v.table.SetCursor(0)
	}
	if v.resorted && r != nil {
		// The offer selected under the old key would keep the cursor, and
		// the view, where it lands: the cheapest offer went to the end of
		// a headroom sort, which then looked smallest first.
		v.resorted = false
		v.table.SetCursor(0)
	}
	v.all, v.disp, v.sort, v.problem, v.none, v.spotNote = nil, nil, "", "", "", ""
	v.serving = r != nil && r.serve != nil
	v.perToken = v.serving && len(r.serve) > 0 && r.serve[0].Serving.PerToken
	v.tpot, v.ray = v.tpot[:0], v.ray[:0]
	if v.serving {
		for i := range r.rec.Offers {
			ms, ray := 0.0, false
			if p := servePlanFor(r, &r.rec.Offers[i]); p != nil {
				ms, ray = p.Perf.TPOTSec*1e3, !p.NoExport.IsZero()
			}
			v.tpot, v.ray = append(v.tpot, ms), append(v.ray, ray)
		}
	}
	if r != nil && r.err == nil { // an answer to fix ranks nothing: no row from before it
		v.all, v.disp, v.sort = r.rec.Offers, r.shownOffers(), r.rec.Sort
	}
	if r != nil {
		if r.spotShown {
			v.spotNote = report.SpotShownNote(v.lang, r.rec.Sort)
		}
		if n := spotLastNote(v.lang, r); n != "" {
			v.spotNote = strings.TrimPrefix(v.spotNote+"\n"+n, "\n")
		}
		if r.err != nil {
			v.problem = errTextIn(v.lang, r.err)
		} else if len(r.rec.Offers) == 0 && r.rec.Considered > 0 {
			v.none = report.ReasonSummaryIn(v.lang, &r.rec)
		}
	}
	if v.provider != "" && !slices.ContainsFunc(v.all, func(o model.Offer) bool { return o.Instance.Provider == v.provider }) {
		v.provider = ""
	}
	v.refresh(keep)
}

// requestKey identifies the request r answers (its answers as they
// would be exported); "" for none.
func requestKey(r *result) string {
	if r == nil {
		return ""
	}
	b, err := json.Marshal(r.cfg)
	if err != nil {
		return fmt.Sprint(r.seq) // cannot happen (plain data); then each recompute is new
	}
	return string(b)
}

// providers lists the providers with offers, for the filter.
func (v *offersView) providers() []string {
	var out []string
	for i := range v.all {
		if p := v.all[i].Instance.Provider; !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// cycleProvider steps the filter: all, then each provider with offers.
func (v *offersView) cycleProvider() {
	ps := append([]string{""}, v.providers()...)
	i := slices.Index(ps, v.provider)
	v.provider = ps[(i+1)%len(ps)]
	v.table.SetCursor(0) // another list: its first (best) offer, not the old row number
	v.refresh(nil)
}

// regionsNote says how many offers the "+N" rows hold, and the key
// that lists them.
func (v *offersView) regionsNote() string {
	n := 0
	for _, m := range v.more {
		n += m
	}
	switch {
	case n > 0: // the heading counts offers, as the panel does; the rows merge regions
		return " · " + v.lang.Sprintf("%s, +%d in other regions (r)", report.Count(v.lang, len(v.shown), "row"), n) // "1 row", not "1 rows"
	case v.allRegions:
		return " · " + v.lang.T("every region (r collapses)")
	}
	return ""
}

// toggleRegions lists every region of a collapsed offer, or collapses
// them again.
func (v *offersView) toggleRegions() {
	v.allRegions = !v.allRegions
	v.refresh(v.selected())
}

// nextSort returns the sort key after the current one.
func (v *offersView) nextSort() model.SortKey {
	i := slices.Index(sortCycle, v.sort)
	return sortCycle[(i+1)%len(sortCycle)]
}

func (v *offersView) selected() *model.Offer {
	c := v.table.Cursor()
	if c < 0 || c >= len(v.shown) {
		return nil
	}
	return &v.all[v.shown[c]]
}

func (v *offersView) setSize(w, h int) {
	w, h = max(w, 0), max(h, 0)
	if w == v.width && h == v.height {
		return
	}
	v.width, v.height = w, h
	v.refresh(v.selected())
}

// Column fitting for the offers table (indexes after the cursor column):
// cut the instance, then the provider, region and GPUs down to these
// widths, in this order, then drop columns in this order, then cut
// tighter. The region goes last: without it, offers in two regions of
// one instance type look the same.
type shrinkTo struct{ col, least int }

var (
	tableShrink      = []shrinkTo{{2, 10}, {1, 6}, {3, 9}, {4, 8}} // instance, provider, region, GPUs
	tableShrinkTight = []shrinkTo{{2, 7}, {1, 4}, {3, 9}, {4, 8}}
	// tableShrinkRoomy are the widths the names keep while a figure that
	// another one implies ($/month from $/h, the job's time from its cost,
	// the headroom) is still on screen: at 80 and 120 columns those went
	// before a provider read "pri…ct" and an instance type "datac…_182"
	// (#31).
	tableShrinkRoomy = []shrinkTo{{2, 16}, {1, 10}, {3, 9}, {4, 10}}
	tableDropOrder   = []int{9, 6, 7, 3} // headroom, $/month, job time, region
	serveDropOrder   = []int{6, 7, 3}    // $/month, 1M tok time, region: TPOT and $/Mtok stay
)

// shrinkWidest takes over cells from the columns sh names (widths
// indexed by column), a cell at a time from the widest above its least
// (the first in sh on a tie): long free text (an instance type, a
// region) is cut before a short name (the provider) and before a column
// with room to spare is left wide, so no column is cut to a stub while
// another keeps cells it does not need. It returns the cells it could
// not take. Numbers are never in sh: they are dropped, not cut.
func shrinkWidest(widths []int, sh []shrinkTo, over int) int {
	for ; over > 0; over-- {
		best := -1
		for i, s := range sh {
			if widths[s.col] > s.least && (best < 0 || widths[s.col] > widths[sh[best].col]) {
				best = i
			}
		}
		if best < 0 {
			return over
		}
		widths[sh[best].col]--
	}
	return 0
}

// columns are the table's columns; widths fit the terminal: the cell
// padding (one each side) is counted, long names are cut with "…" before
// any column is dropped.
func (v *offersView) columns(rows [][]string) []table.Column {
	titles := append([]string{""}, v.headers()...) // a cursor column first: › marks the row without colour
	if v.reserved() {
		titles[6] = v.lang.T(report.CommitmentHeaders[0])
		titles = append(titles, v.lang.T("on-demand job")) // no note under this table: the header says it all
	}
	natural := make([]int, len(titles))
	for c, t := range titles {
		natural[c] = lipgloss.Width(t)
		for _, r := range rows {
			natural[c] = max(natural[c], lipgloss.Width(r[c]))
		}
	}
	pad := v.st.TableCell.GetHorizontalPadding()
	// Columns go in tableDropOrder, names cut to the generous widths;
	// before the region goes, names are cut to the tight widths.
	type attempt struct {
		drop   int
		shrink []shrinkTo
	}
	drops := slices.DeleteFunc(slices.Clone(tableDropOrder), func(c int) bool { return c == report.SortColumn(v.sort)+1 }) // +1: the cursor column
	if v.serving {
		drops = slices.Clone(serveDropOrder)
	}
	last := len(drops)
	var attempts []attempt
	// The roomy names first, dropping the figures before the region
	// (which tells two regions of one type apart); then as before.
	for drop := 0; drop < last && drops[max(drop-1, 0)] != 3; drop++ {
		attempts = append(attempts, attempt{drop, tableShrinkRoomy})
	}
	for drop := 0; drop < last; drop++ {
		attempts = append(attempts, attempt{drop, tableShrink})
	}
	attempts = append(attempts, attempt{last - 1, tableShrinkTight}, attempt{last, tableShrink}, attempt{last, tableShrinkTight})
	// A GPU key is never cut mid-word (report.CutGPUs): the GPUs keep
	// their widest cell without the precision note's words, but in the
	// last, tightest set, where a key may lose whole words from its end.
	gpusFloor, keyLeast := 0, 0
	for i, r := range rows {
		gpusFloor = max(gpusFloor, report.GPUsWhole(r[4]))
		keyLeast = max(keyLeast, report.GPUsLeast(r[4], v.all[v.shown[i]].GPU.Key))
	}
	// A multi-node offer's GPUs keep their count and nodes while its GPU's
	// name can give way (by whole words: report.CutGPUs), but in the last, tightest set.
	gpuCells, gpuOffers := make([]string, len(rows)), make([]*model.Offer, len(rows))
	for i, r := range rows {
		gpuCells[i], gpuOffers[i] = r[4], &v.all[v.shown[i]]
	}
	nodes := nodesFloor(gpuCells, gpuOffers)
	var widths []int
	for n, at := range attempts {
		floor := max(gpusFloor, nodes)
		if n == len(attempts)-1 {
			floor = keyLeast
		}
		widths = slices.Clone(natural)
		for _, c := range drops[:at.drop] {
			widths[c] = 0
		}
		total := 0
		for _, w := range widths {
			if w > 0 {
				total += w + pad
			}
		}
		if over := total - v.width; over > 0 {
			// The names and the GPUs' notes ("↺amp-fp16") first, then the
			// GPUs themselves ("1 of 8×h100-sxm" says what is rented).
			// The GPUs cell keeps its count and GPU ("1 of 8×a100-80gb",
			// 16 cells) while the figures go; then names and GPUs are cut
			// alike, a GPU name longer than 12 cells with "…".
			roomy := &at.shrink[0] == &tableShrinkRoomy[0]
			first := append(slices.Clone(at.shrink[:3]), shrinkTo{4, max(at.shrink[3].least, floor)})
			left := over
			if roomy {
				// The region and GPUs give way, then the provider,
				// before the instance type goes below 24 cells: the type
				// names the offer.
				left = shrinkWidest(widths, []shrinkTo{{2, 24}, {3, 12}, {4, floor}}, left)
				left = shrinkWidest(widths, []shrinkTo{{1, 14}, {3, 9}, {4, floor}}, left)
				left = shrinkWidest(widths, first, left)
			} else {
				// The provider and region go down to 8 and 9 cells
				// before the instance type below 14: whole GPU keys
				// ("1×quadro-rtx-6000 ↺", 19 cells) took its cells at 80
				// columns ("1RTX6….10V" beside "prime…llect").
				left = shrinkWidest(widths, []shrinkTo{{2, max(at.shrink[0].least, 14)}, {1, max(at.shrink[1].least, 8)}, at.shrink[2], {4, floor}}, left)
				left = shrinkWidest(widths, first, left)
				left = shrinkWidest(widths, []shrinkTo{{4, max(at.shrink[3].least, floor)}}, left)
			}
			total -= over - left
		}
		if total <= v.width {
			break
		}
	}
	cols := make([]table.Column, len(titles))
	for c, t := range titles {
		cols[c] = table.Column{Title: report.Truncate(t, widths[c]), Width: widths[c]}
	}
	return cols
}

// reserved reports whether the offers commit to a reserved term: the
// table then shows the commitment in place of $/month and the job's
// on-demand cost at the end (report.CommitmentCells).
func (v *offersView) reserved() bool {
	return !v.serving && len(v.all) > 0 && v.all[0].CommitmentUSD > 0
}

func (v *offersView) refresh(keep *model.Offer) {
	v.shown, v.more = v.shown[:0], v.more[:0]
	if len(v.disp) != len(v.all) {
		v.disp = v.all
	}
	starts, lens := report.RegionRuns(v.disp, -1) // as the panel and recommend: one row per choice (by the figures shown: under spot, two regions' interruption rates differ)
	for k, i := range starts {
		if v.provider != "" && v.all[i].Instance.Provider != v.provider {
			continue
		}
		if v.allRegions {
			for j := i; j < i+lens[k]; j++ {
				v.shown, v.more = append(v.shown, j), append(v.more, 0)
			}
			continue
		}
		v.shown, v.more = append(v.shown, i), append(v.more, lens[k]-1)
	}
	rows := make([][]string, len(v.shown))
	cursor := 0
	v.note = ""
	var shown []model.Offer // the rows' offers, as shown
	late := ""              // the "~" job time's note, in v.note
	if !v.serving {
		shown = make([]model.Offer, len(v.shown))
		for i, j := range v.shown {
			shown[i] = v.disp[j]
		}
		late = report.LateNoteShort(v.lang, shown, false)
		v.note = late
		// The whole ranking's: a cheaper offer ranked after the ones that
		// fit for its chance of running out of memory (S4).
		// Far cheaper, it is worth trying first: said so, as recommend's
		// "try first:" line under its best (model.TryFirstShare).
		// Of the rows the provider filter (p) keeps: a note about another
		// provider's offer stayed under a list filtered to aws (walk,
		// 2026-12-06).
		offers := v.disp
		if v.provider != "" {
			offers = make([]model.Offer, 0, len(v.disp))
			for i := range v.disp {
				if v.disp[i].Instance.Provider == v.provider {
					offers = append(offers, v.disp[i])
				}
			}
		}
		rec := &model.Recommendation{Offers: offers, Sort: v.sort}
		risky := report.TryFirstNoteShort(v.lang, rec)
		if risky == "" {
			risky = report.RiskyAheadNoteShort(v.lang, rec)
		}
		if risky != "" {
			v.note = strings.TrimPrefix(v.note+"\n"+risky, "\n")
		}
	}
	for i, j := range v.shown {
		o := &v.disp[j] // the figures shown; the same instance, region and GPUs as v.all[j]
		rows[i] = append([]string{" "}, offerRow(v.lang, o)...)
		if v.reserved() { // the term's bill instead of $/month, and the job at on-demand prices
			cells := report.CommitmentCells(o)
			rows[i][6] = cells[0]
			rows[i] = append(rows[i], cells[2])
		}
		if v.more[i] > 0 {
			// the region column, as report.CollapseRegions writes it: "any
			// of N regions" for a provider whose regions are unconfirmed
			rows[i][3] = printable(report.OfferRegionIn(v.lang, o.Instance.Provider, o.Region+fmt.Sprintf(" +%d", v.more[i])))
		}
		if v.serving && j < len(v.tpot) { // TPOT where the headroom was: vLLM takes gpu_memory_utilization, the same for all
			rows[i][9] = "—"
			if v.tpot[j] > 0 {
				rows[i][9] = fmt.Sprintf("%.1f", v.tpot[j])
			}
		}
		if v.serving && j < len(v.ray) && v.ray[j] { // the GPUs cell names the nodes (report.OfferGPUsIn); no split column to mark
			rows[i][4] += " " + report.RayMark
			if !strings.Contains(v.note, report.RayMark) {
				v.note = strings.TrimPrefix(v.note+"\n"+report.RayNoteShort(v.lang), "\n")
			}
		}
		if keep != nil && o.Instance == keep.Instance && o.GPUs == keep.GPUs && (o.Region == keep.Region || v.more[i] > 0 && report.SameButRegion(o, keep)) {
			cursor = i
		}
	}
	if keep == nil {
		cursor = min(v.table.Cursor(), len(rows)-1)
	}
	cols := v.columns(rows)
	for range 2 { // a mark moved may drop another column
		if v.serving {
			break
		}
		moved := cols[9].Width == 0 && markBorderline(rows, v.shown, v.all, 4) // the headroom column, and its "~", dropped
		if cols[7].Width == 0 && markLateCost(rows, v.shown, v.disp, 8) {      // the job time, and its "~": on the job cost, as the panel's table
			moved = true
		}
		if !moved {
			break
		}
		cols = v.columns(rows)
	}
	if !v.serving && cols[7].Width == 0 && v.note != "" {
		v.note = strings.Replace(v.note, late, report.LateNoteShort(v.lang, shown, true), 1)
	}
	widths := make([]int, len(cols))
	for c := range cols {
		widths[c] = cols[c].Width
	}
	for i, r := range rows { // the GPU's key gives way, by whole words, before its count and nodes
		r[4] = report.CutGPUs(r[4], v.all[v.shown[i]].GPU.Key, widths[4])
	}
	if widths[4] > 0 {
		// A key cut by whole words may leave cells over (the column was
		// cut by cells, the keys by words): the names cut before it take
		// them back, the instance type first, as the panel's table does
		// (giveBack; walk: "2x_RTX600…da_SECURE" beside a GPUs column
		// with 8 blank cells).
		giveBack(rows, widths, 4, []int{2, 1, 3}, lipgloss.Width(cols[4].Title))
		for c := range cols {
			cols[c].Width = widths[c]
		}
	}
	shortenRegions(v.lang, rows, 3, widths[3])
	cutTable(rows, widths, 3) // cells, as lipgloss measures them (CJK: 2); the region's "+N" kept
	for i, r := range rows {
		// A cut GPUs cell lost its "§" (a cut keeps a name's start or
		// its end): put it back in the same width, as the "~" below.
		if j := v.shown[i]; v.serving && j < len(v.ray) && v.ray[j] && !strings.HasSuffix(r[4], " "+report.RayMark) && widths[4] > 3 {
			r[4] = strings.TrimRight(ansi.Truncate(r[4], widths[4]-3, ""), " …") + "… " + report.RayMark
		}
	}
	if cols[9].Width == 0 {
		// A cut GPUs cell lost its leading "~" to the "…": put it back
		// in the same width, as the panel's table does.
		for i, r := range rows {
			if v.all[v.shown[i]].Verdict == model.VerdictBorderline && !strings.HasPrefix(r[4], "~") {
				if rs := []rune(r[4]); len(rs) >= 2 {
					r[4] = "~…" + string(rs[2:])
				}
			}
		}
	}
	trows := make([]table.Row, len(rows))
	for i, r := range rows {
		trows[i] = r
	}
	v.table.SetRows(nil) // columns and rows must agree while both change
	v.table.SetColumns(cols)
	v.table.SetRows(trows)
	v.table.SetWidth(v.width)
	v.table.SetHeight(max(v.height-2-noteLines(v.note)-noteLines(v.spotNote), 2))
	v.reveal(max(cursor, 0))
	v.mark()
}

// reveal puts the cursor on row i and scrolls it into view: the table's
// SetCursor moves the cursor but not its viewport, so after a sort the
// selected row could be off screen. Moving down from the top is what
// keys do, and keeps the cursor's row visible.
func (v *offersView) reveal(i int) {
	v.table.SetCursor(0)
	v.table.GotoTop()
	if i > 0 {
		v.table.MoveDown(i)
	}
}

// mark puts › in the cursor column of the selected row.
func (v *offersView) mark() {
	rows := v.table.Rows()
	for i := range rows {
		mark := " "
		if i == v.table.Cursor() {
			mark = "›"
		}
		rows[i][0] = mark
	}
	v.table.SetRows(rows)
}

func (v offersView) update(msg tea.Msg) (offersView, tea.Cmd) {
	var cmd tea.Cmd
	v.table, cmd = v.table.Update(msg)
	v.mark()
	return v, cmd
}

func (v offersView) view() string {
	st := v.st
	p := v.lang
	filter := p.T("all providers")
	if v.provider != "" {
		filter = p.Sprintf("provider %s", v.provider)
	}
	if v.problem != "" {
		where := p.T("esc goes back to the questions to fix it.")
		if v.where != "" {
			where = p.Sprintf("It is on %s: esc goes back to fix it.", v.where)
		}
		return report.Truncate(st.Heading.Render(p.T("All offers: none"))+st.Muted.Render(" · "+p.T("an answer needs fixing first")), v.width) + "\n\n" +
			wrapBlock(st.Bad.Render("✗ "+v.problem), v.width) + "\n" + wrapBlock(st.Muted.Render(where), v.width)
	}
	sorted := p.Sprintf("sorted by %s (s) · %s (p) · enter: details", report.SortName(p, v.sort), filter)
	switch { // serve.RankServing's order, which s does not change (trial L5: it said "price")
	case v.serving && v.perToken:
		sorted = p.Sprintf("sorted by $ per million output tokens · %s (p) · enter: details", filter)
	case v.serving:
		sorted = p.Sprintf("sorted by $ per hour that carries the load · %s (p) · enter: details", filter)
	}
	offers := len(v.shown) // offers, not rows: the panel's "Offers: N fit" and recommend's count
	for _, m := range v.more {
		offers += m
	}
	head := st.Heading.Render(p.Sprintf("All offers: %d", offers)) + st.Muted.Render(" · "+sorted+v.regionsNote())
	if len(v.shown) == 0 {
		msg := p.T("No offer runs the workload with these answers; esc goes back to change them.")
		if v.none != "" {
			msg = p.Sprintf("%s. %s", v.none, msg)
		}
		return report.Truncate(head, v.width) + "\n\n" + wrapBlock(st.Muted.Render(msg), v.width)
	}
	out := report.Truncate(head, v.width) + "\n" + v.table.View()
	if v.note != "" {
		for _, l := range strings.Split(v.note, "\n") {
			out += "\n" + st.Warn.Render(report.Truncate(l, v.width))
		}
	}
	for _, l := range strings.Split(v.spotNote, "\n") { // muted, as recommend prints them under its table
		if l != "" {
			out += "\n" + st.Muted.Render(report.Truncate(l, v.width))
		}
	}
	return out
}

// noteLines is how many lines note takes under the offers table.
func noteLines(note string) int {
	if note == "" {
		return 0
	}
	return strings.Count(note, "\n") + 1
}

// detailView explains one offer: why it fits, what it costs, what to
// watch out for; it scrolls when taller than the screen.
type detailView struct {
	st    *report.Styles
	offer *model.Offer
	vp    viewport.Model
	keys  table.KeyMap
	dec   decider // spot, commitments and the time-against-cost chart
	lang  *i18n.Printer
}

func newDetailView(st *report.Styles, keys table.KeyMap) detailView {
	vp := viewport.New()
	vp.KeyMap.Up, vp.KeyMap.Down = keys.LineUp, keys.LineDown
	vp.KeyMap.PageUp, vp.KeyMap.PageDown = keys.PageUp, keys.PageDown
	vp.KeyMap.HalfPageUp, vp.KeyMap.HalfPageDown = keys.HalfPageUp, keys.HalfPageDown
	vp.KeyMap.Left, vp.KeyMap.Right = key.NewBinding(key.WithDisabled()), key.NewBinding(key.WithDisabled())
	return detailView{st: st, vp: vp, keys: keys}
}

func (d *detailView) show(o *model.Offer, r *result, asOf string) {
	c := *o
	d.offer = &c
	d.vp.SetContent(d.content(o, r, asOf))
	d.vp.GotoTop()
}

func (d *detailView) setSize(w, h int, r *result, asOf string) {
	w, h = max(w, 0), max(h, 0)
	if w == d.vp.Width() && h == d.vp.Height() {
		return
	}
	d.vp.SetWidth(w)
	d.vp.SetHeight(h)
	if d.offer != nil {
		d.vp.SetContent(d.content(d.offer, r, asOf))
	}
}

func (d detailView) update(msg tea.Msg) (detailView, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, d.keys.GotoTop):
			d.vp.GotoTop()
		case key.Matches(msg, d.keys.GotoBottom):
			d.vp.GotoBottom()
		default:
			d.vp, cmd = d.vp.Update(msg)
		}
	}
	return d, cmd
}

func (d detailView) view() string { return d.vp.View() }

// offerDetail is the text of the detail view.
func offerDetail(lang *i18n.Printer, st *report.Styles, o *model.Offer, r *result, asOf string, width int) string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, lang.Sprintf(format, args...)) }
	T := lang.T
	in, g := o.Instance, o.GPU
	region := report.RegionIn(lang, o.Region)
	if model.RegionsUnconfirmed(in.Provider) { // the region the export names, no place the type is known to be in
		region += " (" + T("region availability not published") + ")"
	}
	add("%s", st.Title.Render(printable(in.Provider+" "+in.Type))+st.Muted.Render(printable(fmt.Sprintf(" · %s · %s", region, T(string(o.Pricing))))))
	host := lang.Sprintf("%d × %s per instance · %d vCPUs · %.0f GiB RAM", in.GPUCount, g.Name, in.VCPUs, in.MemoryGiB)
	if in.NetworkGbps > 0 {
		host += " · " + lang.Sprintf("%.0f Gbps network", in.NetworkGbps)
	}
	if in.Interconnect != "" {
		host += " · " + in.Interconnect
	}
	add("%s", st.Muted.Render(printable(host)))
	add("")
	e := o.Estimate
	sp := servePlanFor(r, o)
	if o.Verdict == model.VerdictBorderline && sp == nil {
		// The top of the memory band is past the usable VRAM: the
		// heading must not promise a fit the figures below doubt.
		add("%s", st.Heading.Render(lang.Sprintf("Why it may not fit (about %.0f%% chance of running out of memory)", model.RoundChance(o.OOMChance)*100)))
	} else {
		add("%s", st.Heading.Render(T("Why it fits")))
	}
	if sp != nil {
		e = nil // serving: vLLM's layout, not the batch estimate
		add("  TP %d × PP %d, %s on %s", sp.TP, sp.PP, report.Count(lang, sp.Replicas, "replica"), report.Count(lang, sp.Nodes, "instance"))
		if !sp.Cleared.IsZero() { // more replicas than the fewest, as recommend's "↑"
			add("  %s", st.Muted.Render(report.ClearedMark+" "+lang.Message(sp.Cleared)))
		}
		if ne := report.NotExportedIn(lang, sp); ne != "" { // a Ray cluster, which the export does not write
			add("  %s", st.Warn.Render(report.RayMark+" "+ne))
		}
		if !sp.Fallback.IsZero() { // as report.WriteServeEstimate words it
			add("  %s", st.Warn.Render("↺ "+lang.Message(sp.Fallback)))
		}
		for _, l := range report.ServeFiguresIn(lang, sp) {
			add("  %s", l)
		}
	}
	if sp != nil {
		// vLLM's layout: it takes gpu_memory_utilization of the memory
		// the driver shows, weights, activations and KV cache within it.
		add("  vLLM takes %s of each GPU's %s (gpu_memory_utilization %.2g)", report.GiB(sp.Memory.BudgetBytes),
			report.GiB(sp.Memory.TotalBytes), sp.Serving.GPUMemoryUtilization)
	} else {
		// The headroom before the usable memory's derivation: at 120
		// columns "(80 GiB, 79.19 GiB visible to the driver, less the 5%
		// margin)" pushed the line past the width, and the wrap left
		// "81%" at its end with "headroom" alone on the next line.
		add("  needs %s per GPU of %s usable: %s headroom (%s)", report.GiB(o.NeedBytes), report.GiB(o.UsableBytes),
			st.Good.Render(fmt.Sprintf("%.0f%%", o.HeadroomPct)), report.UsableOfIn(lang, g))
	}
	if e != nil {
		add("  %s", report.VRAMBar(e.Memory, o.UsableBytes, max(min(width-4, 60), 4), st))
		for _, l := range report.BreakdownLinesIn(lang, e.Memory, st) {
			add("  %s", l)
		}
		gpus := lang.Sprintf("  %d GPU", o.GPUs)
		if o.GPUs > 1 {
			gpus = lang.Sprintf("  %d GPUs on %d instance(s), %s", o.GPUs, o.Instances, o.Strategy)
		}
		add("%s; host RAM %.0f GiB, needs %.0f GiB", gpus, in.MemoryGiB, model.NodeHostRAMNeed(e, in.GPUCount)/model.GiB)
		prec := lang.Sprintf("  %s runs natively", o.Asked)
		if o.Fallback != "" {
			prec = lang.Sprintf("  %s lacks %s: runs %s", g.Name, o.Asked, o.Fallback)
		}
		add("%s", prec)
	}
	add("")
	add("%s", st.Heading.Render(T("Cost")))
	unit := o.USDPerHour / float64(max(o.Instances, 1))
	add("  %s/h per instance × %d = %s/h", report.USDHour(unit), o.Instances, st.Value.Render(report.USDHour(o.USDPerHour)))
	hours := o.MonthlyUSD / max(o.USDPerHour, 1e-12)
	if model.TermMonths(o.Pricing) > 0 {
		// 730 h where the answers say fewer: say why (model.MonthlyUSD).
		add("  × %s h per month = %s per month (a commitment bills every month in full, used or not)", fmtFloat(report.Round(hours, 1)), st.Value.Render(report.USD(o.MonthlyUSD)))
	} else {
		add("  × %s h per month = %s per month", fmtFloat(report.Round(hours, 1)), st.Value.Render(report.USD(o.MonthlyUSD)))
	}
	if o.HasJob && e != nil {
		hours, sign := jobHoursIn(lang, o)
		if term := model.CommitmentHours(o.Pricing); term > 0 && o.JobHours < term {
			// The term bills its hours whatever the job uses: "12.1 h ×
			// $0.44/h ≈ $3,888" read as wrong arithmetic (walk48).
			add("  job: %s, billed as the %s term: %s h × %s/h = %s", hours, lang.T(string(o.Pricing)), fmtFloat(term),
				report.USDHour(o.USDPerHour), st.Value.Render(report.USD(o.JobUSD)))
		} else {
			add("  job: %s × %s/h %s %s", hours, report.USDHour(o.USDPerHour), sign, st.Value.Render(report.USD(o.JobUSD)))
		}
		if rng := report.JobRangeIn(lang, o); rng != "" {
			add("  %s", st.Muted.Render(rng))
		}
		if x := r.shownAt(o); x != nil {
			// The offers list and the panel show this offer at its
			// expected figures with interruptions (decideSpot): say them
			// here too, under the uninterrupted sum above.
			add("  %s", st.Value.Render(lang.Sprintf("with interruptions: expected %s and %s for the job, as the offers list shows it", report.HoursIn(lang, x.JobHours), report.USD(x.JobUSD))))
		}
		add("  %s", st.Muted.Render(lang.Sprintf("%.3g FLOPs at MFU %.2f of %.4g TFLOPS (%s) per GPU", e.TotalFLOPs, e.MFU, e.PeakTFLOPS, e.Precision)))
	} else if sp == nil { // serving is costed per million tokens, above
		add("  %s", st.Muted.Render(T("no dataset size: job time and cost not computed")))
	}
	warn := lang.Messages(o.WarningMessages())
	if r != nil {
		warn = append(offerWorkloadWarnings(lang, r, o), warn...)
	}
	if l := report.OldPriceLineShort(lang, o, asOf); l != "" { // months behind the catalog: its date is below
		warn = append(warn, l)
	}
	if len(warn) > 0 {
		add("")
		add("%s", st.Heading.Render(T("Warnings")))
		for _, s := range warn {
			add("  %s %s", st.Warn.Render("!"), s)
		}
	}
	add("")
	source, origin := o.Provenance()
	src := sourceIn(lang, source)
	if origin != "" && origin != "embedded" {
		src += lang.Sprintf(" (overlay %s)", origin)
	}
	if a := o.PriceAsOf(); a != "" {
		// one format, so Chinese puts the date before the (English)
		// citation: no "，截至" after English text
		src = lang.Sprintf("source: %s, as of %s", src, a)
	} else {
		src = lang.Sprintf("source: %s", src)
	}
	add("%s", st.Muted.Render(printable(src)))
	switch {
	case asOf != "" && sp != nil && !sp.NoExport.IsZero(): // ctrl+e says why it does not export it
		add("%s", st.Muted.Render(lang.Sprintf("catalog as of %s: prices change, check before renting", asOf)))
	case asOf != "":
		add("%s", st.Muted.Render(lang.Sprintf("catalog as of %s: prices change, check before renting · ctrl+e exports this offer", asOf)))
	}
	for i := range lines {
		lines[i] = wrapKeepingUnits(lines[i], width) // wrap long sources
	}
	return strings.Join(lines, "\n")
}

// unitAfterNumber is a number, a space and the unit that follows it.
var unitAfterNumber = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([0-9%]) (GiB|MiB|KiB|GB/s|GB|TB/s|TFLOPS|FLOPs|Gbps|h|min|ms|px|vCPUs?|小时|分钟|天|年|个|块)\b`)
}) // compiled on first use, not at every start

// wrapKeepingUnits wraps line to width cells, a unit never on another
// line than its number (Chinese lines break at the few spaces they have,
// "432" then "GiB" on the next, issue 31): where the line needs wrapping,
// the space between a number and its unit becomes a no-break space, which
// lipgloss's wrap (charmbracelet/x/ansi) does not break at.
//
// The lines after the first hang where the first line's text starts
// (hangAt: its indent and a mark such as "!"), not at column 0 (walk35:
// at 80 columns a warning's second line read as a line of its own,
// Chinese especially).
//
// Hyphens are no-break hyphens while wrapping, as in wrapLines: a flag
// or a region is never split at its hyphen.
func wrapKeepingUnits(line string, width int) string {
	width = max(width, 1)
	line = strings.ReplaceAll(line, "-", noBreakHyphen)
	if lipgloss.Width(line) > width {
		line = unitAfterNumber().ReplaceAllString(line, "$1\u00a0$2")
		if at := hangAt(ansi.Strip(line)); at > 0 && at <= width/2 {
			body := strings.Split(lipgloss.Wrap(ansi.TruncateLeft(line, at, ""), width-at, ""), "\n")
			body[0] = ansi.Cut(line, 0, at) + body[0]
			pad := strings.Repeat(" ", at)
			for i := 1; i < len(body); i++ {
				body[i] = pad + body[i]
			}
			line = strings.Join(body, "\n")
		}
	}
	return strings.ReplaceAll(lipgloss.NewStyle().Width(width).Render(line), noBreakHyphen, "-")
}

// hangAt is the cell where plain line's text starts: past its leading
// spaces and a mark before a space ("  ! text", "  ↺ text"), 0 for none.
func hangAt(plain string) int {
	text := strings.TrimLeft(plain, " ")
	at := len(plain) - len(text)
	if r, n := utf8.DecodeRuneInString(text); n > 0 && !unicode.IsLetter(r) && !unicode.IsDigit(r) && strings.HasPrefix(text[n:], " ") {
		at += ansi.StringWidth(string(r)) + 1
	}
	return at
}

// sourceIn is a catalog row's source in lang: the importer's fixed
// fragments (the SkyPilot attribution, ", filtered") in words of lang; the
// rest is a citation and stays as written.
func sourceIn(lang *i18n.Printer, source string) string {
	if !lang.Chinese() {
		return source
	}
	for _, f := range sourceFragments {
		source = strings.ReplaceAll(source, f, lang.T(f))
	}
	if strings.HasPrefix(source, "price: ") {
		source = lang.T("price: ") + strings.TrimPrefix(source, "price: ")
	}
	return unconfirmedRE().ReplaceAllStringFunc(source, func(m string) string {
		return lang.Sprintf(", unconfirmed by %s's pages", unconfirmedRE().FindStringSubmatch(m)[1])
	})
}

// sourceFragments are the catalog's source notes' own words (its
// labels, its notes on how a figure was found), which a translation
// gives in the reader's language; the citations stay as written.
var sourceFragments = []string{
	" (SkyPilot authors, Apache-2.0)", ", filtered",
	" (stored public code, repository not named by the index)",
	"; interconnect: ", "; retired: ", "; GPU: ", "; N1 host: ", "; slugs: ", "; specs: ", "; price unverified: ",
	"the GPU is a PCIe card",
}

// unconfirmedRE is a source's note that no page of the provider's
// confirms a figure: ", unconfirmed by DigitalOcean's pages".
var unconfirmedRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`, unconfirmed by ([^,;()]+?)'s pages`) }) // compiled on first use, not at every start

// jobHoursIn is the job's time for the detail's "time × price = cost"
// line, and the sign between: the fewest decimals (1 to 3) at which the
// hours shown times the price shown make the cost shown, with "="; when
// none does (a job under an hour or over two days, a reserved term's
// minimum, a price with more than cents), HoursIn and "≈", so the line
// never reads as a wrong sum.
func jobHoursIn(lang *i18n.Printer, o *model.Offer) (hours, sign string) {
	h := o.JobHours
	if h >= 1 && h < 48 {
		cost := report.USD(o.JobUSD)
		price, _ := strconv.ParseFloat(strings.ReplaceAll(strings.TrimPrefix(report.USDHour(o.USDPerHour), "$"), ",", ""), 64)
		for d := 1; d <= 3; d++ {
			shown, _ := strconv.ParseFloat(strconv.FormatFloat(h, 'f', d, 64), 64)
			if price > 0 && report.USD(shown*price) == cost {
				return lang.Sprintf("%s h", strconv.FormatFloat(h, 'f', d, 64)), "="
			}
		}
	}
	return report.HoursIn(lang, h), "≈"
}
