package tui

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/dustin/go-humanize"
	"github.com/google/shlex"
	"mvdan.cc/sh/v3/syntax"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/ui/cli/offerargs"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
)

// browseSorts are the sort orders tab steps through: market.Sorts,
// whose first (price) is the default.
var browseSorts = market.Sorts

// browseGroups are the groupings ctrl+g steps through, none first.
var browseGroups = append([]market.GroupBy{market.GroupNone}, market.Groups...)

// browseView is the market without a workload (issue 21), as gpuplan
// offers lists it: a filter line in the command's own grammar
// (offerargs.Parse), the rows market.Browse returns with the regions
// at one price collapsed into "+N", sorted and grouped by keys that
// rewrite the line, so the line always says what is shown. A line that
// does not parse says why under the line and keeps the last good list,
// drawn stale (dim, no cursor, named under the list as the last valid
// filter's) so that it does not pass for the line's answer; enter picks
// nothing from it (browseKey).
type browseView struct {
	st    *report.Styles
	cat   *model.Catalog
	input textinput.Model
	// market keeps cat's rows and sort orders across browses, so that a
	// keystroke filters instead of rebuilding (market.Market).
	market *market.Market

	ready   bool        // the catalog's figures below are counted
	size    int         // market.Size: offers before any filter
	base    []string    // providers shown when the line names none: all but marketplaces
	markets []string    // marketplace providers in the catalog, hidden unless named
	text    string      // the line res is for
	err     string      // why the line as typed does not parse; "" when it does
	res     market.View // the last good result
	// sibs are the variants of the GPUs res's line names that it leaves
	// out, with their offers: the note says them as gpuplan offers does
	// ("also: A100-80GB (10 offers)").
	sibs []market.Sibling
	// empty says why res lists nothing (browsedMsg.empty), in the note.
	empty []model.Message
	// lines are the list's lines: a row index (≥ 0) or a group header
	// (-1 - group index); nil when ungrouped (line i is row i).
	lines  []int32
	cursor int // a line holding a row
	top    int // first line shown
	limit  string
	width  int
	height int
	// async browses in a command (false in tests); seq tags each browse
	// so that a result older than the line is dropped, and pending says
	// one is on its way.
	async       bool
	seq         int
	pending     bool
	pendingText string
	// pendingQuery is what the browse on its way is for (defaults filled),
	// for the status line meanwhile; pendingQ is it as parsed, for the
	// command.
	pendingQuery, pendingQ market.Query
	// inflight says a browse command is running. One runs at a time: keys
	// typed meanwhile (unbracketed pastes arrive as thousands of them)
	// only change the pending line, and receive starts the browse of the
	// latest line when the running one is back, so the work follows the
	// browses the screen can show, not the keys (10 KB typed kept the
	// screen busy ~33 s when each key started a browse of its own).
	inflight bool
	errText  string // the line err is about
	// refused is the line enter was refused on (err set, or its browse
	// still on its way): the status line says why until the line changes
	// or its rows arrive.
	refused  string
	refusing bool          // enter was refused on refused (the line may be "")
	lang     *i18n.Printer // the screen's language (nil: English); the filter grammar stays English
	// listing says the list has the focus: enter (or ↑ ↓) accepted the
	// filter, and enter now picks the row under the cursor. While the
	// line has it, enter only accepts the line, as in k9s (/ then enter)
	// and Charm's list filter: one enter picking the top row at once
	// narrowed the whole request before the rows had been looked at
	// (walk: "H100:8 regions=europe" enter pinned primeintellect).
	listing bool
}

// browsedMsg carries a browse of the filter line; seq drops stale ones.
type browsedMsg struct {
	seq  int
	text string
	res  market.View
	err  error
	sibs []market.Sibling // the variants the line's GPUs leave out (market.Siblings)
	// empty says why the line lists nothing when a filter can never match
	// (market.EmptyHints, as offers says it on stderr); nil otherwise.
	empty []model.Message
}

// maxFilter bounds the filter line, in runes: the longest useful line (a
// GPU, every filter, a dozen providers and regions) is under 200; a
// paste of a whole file is cut here rather than split, parsed and drawn
// on every keystroke (60 KB took seconds a key).
const maxFilter = 512

func newBrowseView(st *report.Styles, cat *model.Catalog) browseView {
	in := textinput.New()
	in.CharLimit = maxFilter // pastes too (textinput cuts them)
	in.Prompt = "filter › "
	in.Placeholder = fmt.Sprintf("e.g. %s", "H100:8 vram=40GB+ regions=europe- max-price=2 pricing=spot")
	s := in.Styles()
	s.Cursor.Blink = false // a steady cursor: no timer per frame
	in.SetStyles(s)
	in.Focus()
	return browseView{st: st, cat: cat, input: in}
}

// localize writes the screen in lang from now on.
func (v *browseView) localize(lang *i18n.Printer) {
	v.lang = lang
	v.input.Prompt = lang.T("filter › ")
	v.input.Placeholder = lang.Sprintf("e.g. %s", "H100:8 vram=40GB+ regions=europe- max-price=2 pricing=spot")
}

// open counts the market once per catalog and lists the line's offers.
// limit describes the GPU the request is limited to ("" when none).
func (v *browseView) open(limit string) tea.Cmd {
	v.limit = limit
	v.edit() // the line first: enter then accepts it, a second enter picks
	if !v.ready {
		v.ready = true
		v.market = market.New(v.cat)
		v.size = market.Size(v.cat, model.OnDemand)
		for _, p := range providers(v.cat) {
			if slices.Contains(model.MarketplaceProviders, p) {
				v.markets = append(v.markets, p)
			} else {
				v.base = append(v.base, p)
			}
		}
		v.text = "\x00" // nothing browsed yet
	}
	return v.apply()
}

// setText replaces the filter line and browses it.
func (v *browseView) setText(s string) tea.Cmd {
	v.input.SetValue(s)
	v.input.CursorEnd()
	return v.apply()
}

// apply browses the line when it changed: at once, or in a command when
// async (market.Browse over a large overlay takes longer than a frame;
// the line echoes the keystroke meanwhile). A line that does not split
// or parse sets err at once and keeps the last good list.
func (v *browseView) apply() tea.Cmd {
	text := v.input.Value()
	if text != v.refused {
		v.refusing = false // an edit: the status line is the status again
	}
	switch {
	case v.pending && text == v.pendingText:
		return nil
	case text == v.text: // back to the line shown: a browse on its way is stale
		if v.pending {
			v.seq++
			v.pending = false
		}
		v.err = ""
		return nil
	}
	if v.err != "" && text == v.errText {
		return nil // the same bad line (keys past maxFilter): parsed already
	}
	q, err := parseBrowseLine(text, v.cat)
	if err != nil {
		v.seq++ // a browse on its way is for an older line: dropped
		v.pending, v.err, v.errText = false, errTextIn(v.lang, err), text
		return nil
	}
	if len(q.Providers) == 0 {
		q.Providers = v.base // as gpuplan offers: marketplaces only when named
	}
	v.err = "" // the line parses: an older line's error is not its (Browse's checks answer in receive)
	v.seq++
	if !v.async {
		v.receive(v.browse(v.seq, text, q)().(browsedMsg))
		return nil
	}
	v.pending, v.pendingText, v.pendingQuery, v.pendingQ = true, text, q.WithDefaults(), q
	if v.inflight {
		return nil // receive starts it when the running browse is back
	}
	return v.launch()
}

// launch starts the browse of the pending line in a command.
func (v *browseView) launch() tea.Cmd {
	v.inflight = true
	return v.browse(v.seq, v.pendingText, v.pendingQ)
}

// browse is the command browsing q, the line text, tagged seq: the rows,
// and the variants its GPUs leave out.
func (v *browseView) browse(seq int, text string, q market.Query) tea.Cmd {
	sel, cat := v.market, v.cat
	return func() tea.Msg {
		res, err := sel.View(q)
		var sibs []market.Sibling
		var empty []model.Message
		if err == nil {
			sibs = market.Siblings(cat, q)
			if res.Len() == 0 {
				empty = market.EmptyHints(cat, &q)
			}
		}
		return browsedMsg{seq: seq, text: text, res: res, err: err, sibs: sibs, empty: empty}
	}
}

// receive shows a browse unless a newer line was typed since; an error
// of Browse's checks (an unknown provider or region) keeps the last list.
// When a newer line waits (pending), it returns the command browsing it.
func (v *browseView) receive(msg browsedMsg) tea.Cmd {
	if v.async {
		v.inflight = false
	}
	if msg.seq != v.seq {
		if v.async && v.pending {
			return v.launch()
		}
		return nil
	}
	v.pending = false
	if msg.err != nil {
		v.err, v.errText = errTextIn(v.lang, msg.err), msg.text
		return nil
	}
	keep := v.selected()
	v.res, v.text, v.err, v.sibs, v.empty = msg.res, msg.text, "", msg.sibs, msg.empty
	v.index(keep)
	return nil
}

// parseBrowseLine splits the filter line into words as a shell would
// (quotes keep "Bavaria, DE, EU" whole) and parses them as gpuplan
// offers' arguments.
//
// One "/" at the start of the line is dropped first: it is the key that
// starts a search in less and vim and opens k9s's filter prompt, which
// draws it before the query rather than in it (derailed/k9s,
// internal/ui/table_helper.go, SearchFmt "/%s"), so habit types it
// here, where the line is already the filter. It is a key, not grammar:
// the rest is what gpuplan offers takes, and the spec parser itself
// refuses a leading "/" with the spec to write (market.ParseGPUSpec).
func parseBrowseLine(text string, cat *model.Catalog) (market.Query, error) {
	text = browseLine(text)
	args, err := shlex.Split(text)
	if err != nil {
		// shlex's reasons are fixed sentences ("EOF found when expecting
		// closing quote"): translated as keys.
		return market.Query{}, model.Msg("filter: %s; close the quote", model.Msg(err.Error()))
	}
	return offerargs.Parse(args, cat)
}

// browseLine is the filter line as the grammar reads it: without one
// "/" at its start (parseBrowseLine).
func browseLine(text string) string {
	rest := strings.TrimLeft(text, " \t")
	if r, ok := strings.CutPrefix(rest, "/"); ok {
		return r
	}
	return text
}

// stale reports whether the rows shown are not the line's: it does not
// parse, or the catalog refused it, and the last good list stays. They
// stay rather than vanish because most keystrokes pass through a line
// that does not parse ("H10" on the way to "H100"), and an empty list at
// each would flicker; they are drawn dim, without the cursor and named
// under the list, and enter picks nothing from them. k9s, under a filter
// that does not compile, logs it and shows the table unfiltered
// (derailed/k9s, internal/ui/table.go, Table.filtered): the whole market
// passing for the line's answer is the confusion avoided here.
func (v *browseView) stale() bool { return v.err != "" }

// refuse answers enter on a line whose rows are not shown: it does not
// parse (the error line says to fix the filter first), or its browse is
// on its way (the status line says to press enter again once they are).
// Nothing is picked from rows the line did not ask for.
func (v *browseView) refuse() { v.refused, v.refusing = v.input.Value(), true }

// accept gives the list the focus: the line stays as it is, enter now
// picks the row under the cursor and / goes back to the line.
func (v *browseView) accept() {
	v.listing = true
	v.input.Blur()
}

// edit gives the filter line the focus again.
func (v *browseView) edit() {
	v.listing = false
	v.input.Focus()
}

// refusedNow reports whether enter was refused on the line as it is.
func (v *browseView) refusedNow() bool { return v.refusing && v.refused == v.input.Value() }

// index lays out the lines of v.res and puts the cursor on keep's
// instance and region when it is still listed, else on the first row.
func (v *browseView) index(keep *market.Row) {
	v.lines = nil
	if g := v.res.Groups; len(g) > 0 {
		v.lines = make([]int32, 0, v.res.Len()+len(g))
		for gi := range g {
			v.lines = append(v.lines, int32(-1-gi))
			for _, r := range g[gi].Rows {
				v.lines = append(v.lines, int32(r))
			}
		}
	}
	v.cursor, v.top = 0, 0
	for i := range v.numLines() {
		r := v.rowAt(i)
		if r == nil {
			continue
		}
		if keep == nil || r.Instance == keep.Instance && r.Region == keep.Region {
			v.cursor = i
			break
		}
	}
	if v.rowAt(v.cursor) == nil { // keep not found: the first row
		v.cursor = 0
		v.move(1)
	}
	v.scroll()
}

func (v *browseView) numLines() int {
	if v.lines != nil {
		return len(v.lines)
	}
	return v.res.Len()
}

// rowAt returns the row on line i, or nil for a group header or no line.
func (v *browseView) rowAt(i int) *market.Row {
	if i < 0 || i >= v.numLines() {
		return nil
	}
	if v.lines == nil {
		return v.res.Row(i)
	}
	if r := v.lines[i]; r >= 0 {
		return v.res.Row(int(r))
	}
	return nil
}

// selected is the row under the cursor, nil when the list is empty.
func (v *browseView) selected() *market.Row { return v.rowAt(v.cursor) }

// move steps the cursor by d rows (headers are stepped over), staying
// in the list.
func (v *browseView) move(d int) {
	n := v.numLines()
	if n == 0 {
		return
	}
	step := 1
	if d < 0 {
		step, d = -1, -d
	}
	i := v.cursor
	for d > 0 {
		j := i + step
		for j >= 0 && j < n && v.rowAt(j) == nil {
			j += step
		}
		if j < 0 || j >= n {
			break
		}
		i, d = j, d-1
	}
	if v.rowAt(i) == nil { // started on a header at the top
		for i < n && v.rowAt(i) == nil {
			i++
		}
	}
	v.cursor = min(i, n-1)
	v.scroll()
}

// listHeight is the lines the list shows: the body less the filter,
// the status and the column titles, and the note when there is one.
func (v *browseView) listHeight() int {
	h := v.height - 3
	if v.note() != "" {
		h--
	}
	if v.stale() { // staleLabel's line
		h--
	}
	return max(h, 1)
}

// scroll keeps the cursor's line, and the header of its group, in view.
func (v *browseView) scroll() {
	h := v.listHeight()
	if v.cursor < v.top {
		v.top = v.cursor
		if v.cursor > 0 && v.rowAt(v.cursor-1) == nil {
			v.top-- // the group's header too
		}
	}
	if v.cursor >= v.top+h {
		v.top = v.cursor - h + 1
	}
	v.top = max(min(v.top, v.numLines()-h), 0)
}

func (v *browseView) setSize(w, h int) {
	v.width, v.height = max(w, 0), max(h, 0)
	v.input.SetWidth(max(v.width-len(v.input.Prompt)-1, 1))
	v.scroll()
}

// update passes a key to the filter line and browses what it now says.
func (v browseView) update(msg tea.Msg) (browseView, tea.Cmd) {
	if v.listing { // typing or pasting again edits the line: no letter is a list key here
		v.edit()
	}
	var cmd tea.Cmd
	v.input, cmd = v.input.Update(msg)
	return v, tea.Batch(cmd, v.apply())
}

// query is the last good query, or the zero one before any.
func (v *browseView) query() market.Query {
	if v.pending { // the line's, known before its rows (a large overlay takes a while)
		return v.pendingQuery
	}
	return v.res.Query
}

// cycleSort steps the sort order by d and writes it into the line.
func (v *browseView) cycleSort(d int) tea.Cmd {
	i := slices.Index(browseSorts, v.query().Sort)
	next := browseSorts[(max(i, 0)+d+len(browseSorts))%len(browseSorts)]
	val := string(next)
	if next == browseSorts[0] {
		val = "" // the default: no word for it
	}
	return v.setFilter("sort", val)
}

// cycleGroup steps the grouping and writes it into the line.
func (v *browseView) cycleGroup() tea.Cmd {
	i := slices.Index(browseGroups, v.query().GroupBy)
	return v.setFilter("group-by", string(browseGroups[(max(i, 0)+1)%len(browseGroups)]))
}

// toggleRegions expands the "+N regions" rows into one row per region
// price (--all-regions), or collapses them again.
func (v *browseView) toggleRegions() tea.Cmd {
	val := "on"
	if v.query().AllRegions {
		val = ""
	}
	return v.setFilter("all-regions", val)
}

// setFilter rewrites the line with filter name set to val ("" removes
// it; a switch is written bare), keeping every other word, and browses
// it. A line with an open quote is left as typed.
func (v *browseView) setFilter(name, val string) tea.Cmd {
	args, err := shlex.Split(v.input.Value())
	if err != nil {
		return nil
	}
	valued := offerargs.TakesValue(name)
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		n, _, hasVal := strings.Cut(strings.ToLower(strings.TrimLeft(a, "-")), "=")
		if !strings.HasPrefix(a, "-") && !hasVal { // a GPU spec
			out = append(out, a)
			continue
		}
		words := 1
		if strings.HasPrefix(a, "-") && !hasVal && offerargs.TakesValue(n) && i+1 < len(args) {
			words = 2 // --regions us-: the value is the next word
		}
		if n != name {
			out = append(out, args[i:i+words]...)
		}
		i += words - 1
	}
	switch {
	case val == "":
	case valued:
		out = append(out, name+"="+val)
	default:
		out = append(out, "--"+name)
	}
	for i, a := range out {
		if strings.ContainsFunc(a, func(r rune) bool { return strings.ContainsRune(" \t\n'\"\\", r) }) {
			if q, err := syntax.Quote(a, syntax.LangPOSIX); err == nil {
				out[i] = q // "regions=Bavaria, DE, EU" stays one word
			}
		}
	}
	return v.setText(strings.Join(out, " "))
}

// note is the line under the list: the request's GPU limit, and the
// marketplaces left out.
func (v *browseView) note() string {
	var parts []string
	if r := v.selected(); r != nil { // where an overlay's price came from, as under the CLI's table
		if source, origin, asOf := r.Provenance(); model.FromOverlay(origin) {
			parts = append(parts, report.OverlayNote(v.lang, report.OverlayMark, source, origin, asOf))
		}
	}
	if utf8.RuneCountInString(v.input.Value()) >= maxFilter {
		parts = append(parts, v.lang.Sprintf("the filter takes at most %d characters", maxFilter))
	}
	if v.limit != "" {
		parts = append(parts, v.lang.Sprintf("the offers are limited to %s (ctrl+x clears)", v.limit))
	}
	for _, m := range v.empty { // why nothing is listed, first: the list says nothing else
		parts = append(parts, v.lang.Message(m))
	}
	if len(v.sibs) > 0 {
		parts = append(parts, v.lang.Sprintf("also: %s: other variants, not shown; type one in the filter", report.SiblingList(v.lang, v.sibs)))
	}
	if len(v.markets) > 0 && !slices.ContainsFunc(v.res.Query.Providers, func(p string) bool { return slices.Contains(v.markets, p) }) {
		parts = append(parts, v.lang.Sprintf("marketplaces hidden: %s", "providers="+strings.Join(v.markets, ",")))
	}
	return strings.Join(parts, " · ")
}

// staleLabel is the line under the error, above the rows, while the line
// does not parse: whose rows they are. Under the list (as it was) it sat
// a screen away from the error, which then read as the heading of rows
// from every country (walk49g: "country=zz" over the whole market).
func (v *browseView) staleLabel() string {
	if !v.stale() {
		return ""
	}
	if t := strings.TrimSpace(browseLine(v.text)); t != "" && v.text != "\x00" { // "\x00": nothing browsed yet
		return v.lang.Sprintf("rows of the last valid filter: %s", printable(t))
	}
	return v.lang.T("rows of the last valid filter: none (the whole market)")
}

// status is the line under the filter: the error, or what is shown.
func (v *browseView) status() string {
	if v.err != "" {
		msg := v.err // in v.lang already (errTextIn)
		if v.refusedNow() {
			msg = v.lang.Sprintf("fix the filter first: %s", msg)
		}
		return v.st.Bad.Render("✗ " + msg)
	}
	p := v.lang
	q := v.query()
	regions := p.T("cheapest region")
	if q.AllRegions {
		regions = p.T("every region")
	}
	s := p.Sprintf("%s (of %s region prices) · %s · %s · sorted by %s", report.Count(p, v.res.Len(), "offer"), humanize.Comma(int64(v.size)),
		report.PricingName(p, q.Pricing), regions, marketWord(p, "sort", string(q.Sort)))
	if q.GroupBy != "" {
		s += " · " + p.Sprintf("grouped by %s", marketWord(p, "group", string(q.GroupBy)))
	}
	if v.pending {
		if v.refusedNow() { // first, where a narrow screen still shows it
			return v.st.Muted.Render(p.T("browsing…") + " " + p.T("enter again once this line's offers are shown") + " · " + s)
		}
		s += " · " + p.T("browsing…")
	}
	return v.st.Muted.Render(s)
}

// browseColumns are the column sets of the list, widest first, as
// indexes of report.MarketTableRow's cells: provider, instance, GPUs,
// VRAM GiB, $/h, $/GPU-h, spot $/h, vCPUs/GPU, RAM GiB/GPU, interconnect,
// region, as of. The first set that fits is used.
var browseColumns = [][]int{
	{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
	{0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11},
	{0, 1, 2, 3, 4, 5, 6, 9, 10},
	{0, 1, 2, 3, 4, 5, 6, 10},
	{0, 1, 2, 3, 4, 5, 10},
	{0, 1, 2, 4, 5, 10},
}

// browseShrink are the cells cut (with "…") down to these widths before
// a set is given up: the instance, then the region; browseShrinkTight
// when even the narrowest set is too wide.
// regionCountry is the country a region cell names after it
// (model.RegionCountrySuffix): " (US)".
var regionCountry = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` \([A-Z]{2}\)`) }) // compiled on first use, not at every start

var (
	browseShrink      = []shrinkTo{{1, 10}, {10, 12}, {2, 12}, {0, 8}}
	browseShrinkTight = []shrinkTo{{1, 10}, {10, 10}, {2, 9}, {0, 6}}
)

// numeric cells are right-aligned.
func numeric(c int) bool { return c >= 3 && c <= 8 }

// inputView is the filter line as drawn: every rune a terminal would act
// on or not show (a bidi override, a zero-width space: termsafe) written
// as its escape, as the error line under it does, with the cursor kept on
// the same rune. The line parsed is what was typed.
func (v browseView) inputView() string {
	val := v.input.Value()
	shown := printable(val)
	if shown == val {
		return v.input.View()
	}
	in := v.input // a copy: only the drawing changes
	in.CharLimit = 0
	pos := len([]rune(printable(string([]rune(val)[:in.Position()]))))
	in.SetValue(shown)
	in.SetCursor(pos)
	return in.View()
}

// view draws the filter line, its status, and the list.
func (v browseView) view() string {
	w := max(v.width, 1)
	out := []string{report.Truncate(v.inputView(), w), report.Truncate(v.status(), w)}
	top := 3 // the filter, the status, the column titles
	if l := v.staleLabel(); l != "" {
		out = append(out, report.Truncate(v.st.Muted.Render(l), w))
		top++
	}
	h := v.listHeight()
	end := min(v.top+h, v.numLines())
	cells := make([][]string, 0, end-v.top)
	var marked []bool // an overlay set the row's price: "*" after it, as the CLI's tables
	for i := v.top; i < end; i++ {
		if r := v.rowAt(i); r != nil {
			c := report.MarketTableRow(r)            // prices as the tables print them
			c[10] = report.MarketRegionIn(v.lang, r) // "location not stated", "any of N regions" in the screen's language
			for j := range c {
				c[j] = printable(c[j])
			}
			_, origin, _ := r.Provenance()
			marked = append(marked, model.FromOverlay(origin))
			cells = append(cells, c)
		} else {
			marked = append(marked, false)
			cells = append(cells, nil)
		}
	}
	if slices.Contains(marked, true) { // the others padded, so the figures stay aligned
		for i, c := range cells {
			if c != nil {
				c[4] += map[bool]string{true: report.OverlayMark, false: " "}[marked[i]]
			}
		}
	}
	keys := make([]string, len(cells)) // the GPU key of each row's GPUs cell, "" for a group line
	for i := range cells {
		if r := v.rowAt(v.top + i); r != nil {
			keys[i] = r.Instance.GPU
		}
	}
	cols, widths := v.fit(cells, keys, w)
	if k := slices.Index(cols, 10); k >= 0 && slices.ContainsFunc(cells, func(c []string) bool { return c != nil && ansi.StringWidth(c[10]) > widths[k] }) {
		// "any of 17 regions" does not fit: laid out again as "any of 17",
		// so the room it leaves goes to the other columns.
		shortenRegions(v.lang, cells, 10, widths[k])
		cols, widths = v.fit(cells, keys, w)
	}
	if k := slices.Index(cols, 2); k >= 0 { // the GPU's key gives way by whole words only (report.CutGPUs)
		for i, c := range cells {
			if c != nil {
				c[2] = report.CutGPUs(c[2], keys[i], widths[k])
			}
		}
	}
	if i := slices.IndexFunc(cells, func(c []string) bool { return c != nil }); i >= 0 {
		all := make([]int, len(cells[i])) // by cell index; a column not shown is not cut
		for c := range all {
			all[c] = math.MaxInt
		}
		for k, col := range cols {
			all[col] = widths[k]
		}
		for _, c := range cells { // a region too wide loses its country before its name is cut ("us-e…US) +1")
			if c != nil && ansi.StringWidth(c[10]) > all[10] {
				c[10] = regionCountry().ReplaceAllString(c[10], "")
			}
		}
		shortenRegions(v.lang, cells, 10, all[10])
		cutTable(cells, all, 10)
	}
	const gap = 2
	line := func(c []string, cut bool) string {
		var b strings.Builder
		b.WriteString(" ")
		for k, col := range cols {
			if k > 0 {
				b.WriteString(strings.Repeat(" ", gap))
			}
			s := c[col]
			if cut { // the headers; the rows are cut above
				s = report.Truncate(s, widths[k])
			}
			pad := strings.Repeat(" ", max(widths[k]-ansi.StringWidth(s), 0))
			if numeric(col) {
				b.WriteString(pad + s)
			} else {
				b.WriteString(s + pad)
			}
		}
		return b.String()
	}
	head := v.st.TableHeader.UnsetBorderStyle().UnsetBorderBottom().UnsetPadding()
	out = append(out, report.Truncate(head.Render(line(v.headers(), true)), w))
	if v.res.Len() == 0 {
		out = append(out, v.st.Muted.Render(report.Truncate(" "+v.lang.T("no offer matches: loosen the filter"), w)))
	}
	for i, c := range cells {
		ln := v.top + i
		if c == nil {
			g := &v.res.Groups[-1-v.lines[ln]]
			out = append(out, report.Truncate(v.st.Heading.Render(printable(report.MarketGroupLine(v.lang, g))), w))
			continue
		}
		s := line(c, false)
		switch {
		case v.stale(): // dim and no cursor: not the line's rows, nothing to pick
			s = v.st.Muted.Render(s)
		case ln == v.cursor:
			s = v.st.TableSelected.Render("›" + s[1:])
		}
		out = append(out, report.Truncate(s, w))
	}
	out = fitLines(out, h+top)
	if n := v.note(); n != "" {
		out = append(out, report.Truncate(v.st.Muted.Render(n), w))
	}
	return strings.Join(out, "\n")
}

// headers are the list's column titles in v's language.
func (v *browseView) headers() []string {
	out := make([]string, len(report.MarketMarkdownHeader))
	for i, h := range report.MarketMarkdownHeader {
		out[i] = v.lang.T(h)
	}
	return out
}

// fitLines pads lines with empty ones to n.
func fitLines(lines []string, n int) []string {
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines
}

// fit picks the widest column set whose cells (the rows on screen and
// the titles) fit w, cutting names in browseShrink's order when none does.
func (v *browseView) fit(cells [][]string, keys []string, w int) (cols, widths []int) {
	heads := v.headers()
	natural := make([]int, len(heads))
	for c, t := range heads {
		natural[c] = ansi.StringWidth(t)
	}
	keyLeast := natural[2] // the GPUs with their keys cut to whole words (report.CutGPUs), for the tightest fit
	for i, r := range cells {
		for c, s := range r {
			natural[c] = max(natural[c], ansi.StringWidth(s))
		}
		if r != nil {
			keyLeast = max(keyLeast, report.GPUsLeast(r[2], keys[i]))
		}
	}
	// The GPUs are not cut while a column can go (a GPU key is what the
	// filter takes back: never cut mid-word); in the tightest fit their
	// keys lose whole words from the end.
	gpus := func(sh []shrinkTo, least int) []shrinkTo {
		sh = slices.Clone(sh)
		for i := range sh {
			if sh[i].col == 2 {
				sh[i].least = max(sh[i].least, least)
			}
		}
		return sh
	}
	const gap = 2
	total := func(cols []int, widths []int) int {
		t := 1 // the cursor's cell
		for k := range cols {
			t += widths[k] + gap
		}
		return t - gap
	}
	shrink := func(sh []shrinkTo) {
		var at []shrinkTo // by position in cols
		for _, s := range sh {
			if k := slices.Index(cols, s.col); k >= 0 {
				at = append(at, shrinkTo{k, s.least})
			}
		}
		if over := total(cols, widths) - w; over > 0 {
			shrinkWidest(widths, at, over)
		}
	}
	for _, set := range browseColumns {
		cols, widths = set, make([]int, len(set))
		for k, c := range set {
			widths[k] = natural[c]
		}
		if shrink(gpus(browseShrink, natural[2])); total(cols, widths) <= w {
			return cols, widths
		}
	}
	shrink(gpus(browseShrinkTight, keyLeast))
	return cols, widths
}

// limitTo points the request at a GPU picked on the market: offers of
// that GPU only, on that provider, in the row's regions, in its pricing
// mode when the questions offer it, on its GPU count (one GPU: single;
// more: that many on one node, unless several nodes were asked for).
//
// What it replaces is kept (marketPick) the first time, so that ctrl+x
// in the browser puts back the providers and regions answered before:
// clearing only the GPU left the pick's provider and regions pinned,
// unseen (walk: "offers of every GPU", all nine of them primeintellect's).
func (a *answers) limitTo(r *market.Row) {
	if !a.pick.On {
		a.pick = marketPick{On: true, WasProviders: slices.Clone(a.Providers), WasExtra: slices.Clone(a.extra.ExtraProviders),
			WasRegions: slices.Clone(a.Regions), WasDistribution: a.Distribution, WasGPUs: a.GPUs, WasPricing: a.Pricing}
	}
	a.GPUKeys = []string{r.GPU.Key}
	a.Providers, a.extra.ExtraProviders = []string{r.Instance.Provider}, nil
	a.Regions = slices.Clone(r.Regions)
	a.pick.Providers, a.pick.Regions = slices.Clone(a.Providers), slices.Clone(a.Regions)
	if slices.Contains(model.PricingModes, r.Pricing) {
		a.Pricing = r.Pricing
	}
	switch n := r.Instance.GPUCount; {
	case n <= 1:
		a.Distribution, a.GPUs = distSingle, "1"
	case a.Distribution == distMulti:
		a.GPUs = "auto"
	default:
		a.Distribution, a.GPUs = distNode, strconv.Itoa(n)
	}
	a.pick.Distribution, a.pick.GPUs, a.pick.Pricing = a.Distribution, a.GPUs, a.Pricing
}

// marketPick is what a pick in the market browser pinned (limitTo) and
// what it replaced, so that clearing it (clearPick) puts the answers
// before it back. A value, not a pointer: answers.key prints it.
type marketPick struct {
	On                                 bool
	Providers, Regions                 []string // as the pick set them
	WasProviders, WasExtra, WasRegions []string // as they were before the first pick
	// The GPU count and pricing likewise: as the pick set them, and as
	// they were before the first pick (a verification walk: after ctrl+x
	// the job stayed on the pick's 8 GPUs, its strategy moved to FSDP).
	Distribution, GPUs       string
	WasDistribution, WasGPUs string
	Pricing, WasPricing      model.Pricing
}

// clearPick lifts the limits a market pick set: the GPU, and the
// providers, regions, GPU count and pricing, which go back to what was answered before the
// pick unless they were changed since (then they are the user's own
// answers, and stay). A GPU limit a file set (no pick) is lifted alone.
func (a *answers) clearPick() {
	a.GPUKeys = nil
	if p := a.pick; p.On {
		if sameSet(a.Providers, p.Providers) {
			a.Providers, a.extra.ExtraProviders = p.WasProviders, p.WasExtra
		}
		if sameSet(a.Regions, p.Regions) {
			a.Regions = p.WasRegions
		}
		if a.Distribution == p.Distribution && a.GPUs == p.GPUs {
			a.Distribution, a.GPUs = p.WasDistribution, p.WasGPUs
		}
		if a.Pricing == p.Pricing {
			a.Pricing = p.WasPricing
		}
	}
	a.pick = marketPick{}
}

// sameSet reports whether a and b hold the same strings in any order (the
// Where page writes its choices back in the options' order).
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// scope says, in lang, where the request looks for offers while a GPU
// is picked (by the browser or a file): "8× NVIDIA H100 SXM5 80GB on
// primeintellect in FI, IS", the GPU count while the pick's holds (as the
// pick's footer wrote it; new-user walk: the header named the GPU of an
// 8-GPU pick without its count), every provider and every region said as
// such; "" without a GPU limit. The header and the browser show it, so
// a provider or region the pick pinned is never out of sight.
func (a *answers) scope(cat *model.Catalog, lang *i18n.Printer) string {
	gpus := a.gpuLimit(cat)
	if gpus == "" {
		return ""
	}
	if n := a.pickedCount(); n > 0 {
		gpus = lang.Sprintf("%d× %s", n, gpus)
	}
	provs := lang.T("every provider but marketplaces")
	if ps := append(slices.Clone(a.Providers), a.extra.ExtraProviders...); len(ps) > 0 {
		provs = shortList(lang, ps, 3)
	}
	regions := lang.T("every region")
	if len(a.Regions) > 0 {
		regions = shortList(lang, a.Regions, 3)
	}
	return printable(lang.Sprintf("%s on %s in %s", gpus, provs, regions))
}

// pickedCount is the GPU count a market pick set (limitTo) while the
// answers still hold it; 0 without a pick, after the count was answered
// again, or when the pick left it to the search (several nodes: "auto").
func (a *answers) pickedCount() int {
	p := a.pick
	if !p.On || a.GPUs != p.GPUs || a.Distribution != p.Distribution {
		return 0
	}
	n, err := strconv.Atoi(a.GPUs)
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// shortList joins names with lang's list separator, the first n and
// "+N" for the others, as the tables write regions ("FI, IS", "us-east-1,
// us-west-1, europe-central-1 +14").
func shortList(lang *i18n.Printer, names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, lang.T(", "))
	}
	return strings.Join(names[:n], lang.T(", ")) + fmt.Sprintf(" +%d", len(names)-n)
}

// gpuLimit describes the answers' GPU limit for the screen, "" when none.
func (a *answers) gpuLimit(cat *model.Catalog) string {
	var names []string
	for _, k := range a.GPUKeys {
		if g, err := cat.GPU(k); err == nil {
			names = append(names, g.Name)
		} else {
			names = append(names, k)
		}
	}
	return printable(strings.Join(names, ", "))
}

// toBrowse opens the market browser; esc comes back here.
func (m app) toBrowse() (tea.Model, tea.Cmd) {
	m.from = m.screen
	m.screen = screenBrowse
	m.footer.say("", false)
	m.browse.async = m.async
	cmd := m.browse.open(m.a.scope(m.cat, m.lang))
	m.layout()
	return m, cmd
}

// browseKey routes a key of the browser: its own keys, else the filter
// line.
func (m app) browseKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := &m.keys.Market
	b := &m.browse
	var cmd tea.Cmd
	switch {
	case key.Matches(msg, m.keys.Back):
		m.screen = m.from
		m.layout()
		return m, nil
	case b.stale() && slices.Contains(k.Pick.Keys(), msg.String()):
		// The rows are the last valid filter's, not the line's (Pick is
		// disabled, so help does not offer it): picking one would pin a
		// GPU the line never asked for.
		b.refuse()
	case key.Matches(msg, k.Accept):
		b.accept() // the filter is accepted; a second enter picks
	case key.Matches(msg, k.Edit):
		b.edit() // the / is the key, not part of the line
	case key.Matches(msg, k.Pick) && b.pending:
		// The rows are still the previous line's (a browse of a large
		// overlay takes longer than a frame): the same wrong pick.
		b.refuse()
	case key.Matches(msg, k.Pick):
		if r := b.selected(); r != nil && r.Held() && !m.cat.TrustOverlays {
			// The guards held its price as fake (issue #29): a search
			// narrowed to it would rank a price nobody vouched for.
			m.footer.say(m.lang.T("that price looks fake or mistyped (held by the catalog guards): not a search to narrow to; gpuplan --trust-overlay ranks it"), true)
			return m, nil
		}
		return m.startFrom(b.selected())
	case key.Matches(msg, k.ClearGPU):
		m.a.clearPick()
		return m.startFrom(nil)
	case key.Matches(msg, k.Sort):
		cmd = b.cycleSort(1)
	case key.Matches(msg, k.SortBack):
		cmd = b.cycleSort(-1)
	case key.Matches(msg, k.Group):
		cmd = b.cycleGroup()
	case key.Matches(msg, k.Regions):
		cmd = b.toggleRegions()
	case key.Matches(msg, k.Up): // moving in the list accepts the line, as in Charm's list filter
		b.accept()
		b.move(-1)
	case key.Matches(msg, k.Down):
		b.accept()
		b.move(1)
	case key.Matches(msg, k.PageUp):
		b.accept()
		b.move(-b.listHeight())
	case key.Matches(msg, k.PageDown):
		b.accept()
		b.move(b.listHeight())
	default:
		if m.browse.full(msg) {
			// Text past the cap is dropped by the line anyway: no browse,
			// layout or frame for it (app.gen), so a flood of keys costs
			// O(1) each (attack round 15, finding 10).
			m.keyDropped = true
			return m, nil
		}
		m.browse, cmd = m.browse.update(msg)
	}
	m.layout()
	return m, cmd
}

// full reports whether msg only types text the filter line, at maxFilter
// runes already, would drop: a key with text and no modifier but shift.
func (v *browseView) full(msg tea.KeyPressMsg) bool {
	return msg.Text != "" && msg.Mod&^tea.ModShift == 0 && v.input.Focused() && v.input.CharLimit > 0 &&
		utf8.RuneCountInString(v.input.Value()) >= v.input.CharLimit
}

// startFrom returns to the questions with the request limited to row's
// GPU (answers.limitTo), or as it is when row is nil, and recomputes:
// the panel and the offers then show what runs on that GPU. The form is
// rebuilt on its first page, so every question shows the new answers.
func (m app) startFrom(r *market.Row) (tea.Model, tea.Cmd) {
	if r != nil {
		m.a.limitTo(r)
	}
	m.screen = screenWizard
	m.wiz = newWizard(m.a, m.cat, m.hf.check(), m.theme, m.wiz.width, m.wiz.height, m.lang)
	cmd := m.wiz.form.Init()
	m.afterForm()
	switch {
	case r != nil && m.a.pickedCount() > 0: // all the pick pinned, said in full: the GPU, its count (in the scope), the provider, the regions, the pricing
		m.footer.say(printable(m.lang.Sprintf("offers limited to %s (%s) · ctrl+b, ctrl+x clears the pick",
			m.a.scope(m.cat, m.lang), report.PricingName(m.lang, m.a.Pricing))), false)
	case r != nil: // the count the row's instance has, which the search may span nodes of
		m.footer.say(printable(m.lang.Sprintf("offers limited to %d× %s (%s) · ctrl+b, ctrl+x clears the pick",
			r.Instance.GPUCount, m.a.scope(m.cat, m.lang), report.PricingName(m.lang, m.a.Pricing))), false)
	default: // where the offers come from now, whatever the pick had pinned
		provs := m.lang.T("every provider but marketplaces")
		if ps := append(slices.Clone(m.a.Providers), m.a.extra.ExtraProviders...); len(ps) > 0 {
			provs = shortList(m.lang, ps, 3)
		}
		regions := m.lang.T("every region")
		if len(m.a.Regions) > 0 {
			regions = shortList(m.lang, m.a.Regions, 3)
		}
		m.footer.say(printable(m.lang.Sprintf("pick cleared: offers of every GPU on %s in %s", provs, regions)), false)
	}
	m.layout()
	return m, tea.Batch(cmd, m.recompute())
}

// pickedGPU is the largest of the GPUs the request is limited to (the
// browse screen's pick), which fit advice then aims at; nil for none.
func pickedGPU(cat *model.Catalog, keys []string) *model.GPU {
	var best *model.GPU
	for _, k := range keys {
		if g, err := cat.GPU(k); err == nil && (best == nil || g.MemoryBytes() > best.MemoryBytes()) {
			best = g
		}
	}
	return best
}

// marketWord is a market sort or grouping ("gpu-price", "region") as the
// status line names it: the filter value in English, words in Chinese
// (the catalogue's "market sort gpu-price", "market group region").
func marketWord(lang *i18n.Printer, kind, value string) string {
	if !lang.Chinese() {
		return value
	}
	return lang.T("market " + kind + " " + value)
}
