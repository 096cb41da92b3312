package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// cachedSelect is a huh.Select whose drawing is kept until the field
// changes. huh draws a select by rendering every option (the model list
// has forty), and a group draws its focused field twice per update
// (group.getContent measures the field's height with a second View), so
// each keystroke drew the list twice; with the cache, once. A select's
// View depends only on its own state, and every method that changes that
// state goes through the wrapper, which drops the drawing; the bound
// value changes only through the field.
//
// Options and the other builders must be called on the huh.Select before
// it is wrapped (they change it behind the wrapper's back).
type cachedSelect[T comparable] struct {
	*huh.Select[T]
	view  string
	drawn bool

	// What huh keeps private and the window needs, followed through the
	// wrapper's methods.
	win   window[T]
	value *T                // the bound answer
	keys  *huh.SelectKeyMap // as the form gave them
	// query is huh's filter text, followed key by key: huh keeps its
	// filter input private, and the window draws the filtered list
	// itself (an option's key holds text the filter matches that is not
	// drawn: searchKey). Both are bubbles text inputs with the same
	// defaults, fed the same messages while the filter is open.
	query textinput.Model
}

// cacheSelect wraps s; title, description, options and height are what
// s was built with (huh does not say). hint is what is drawn in place of
// the options when a filter matches none, given the filter's text (nil,
// or "" from it, for nothing).
func cacheSelect[T comparable](s *huh.Select[T], title, description string, options []huh.Option[T], height int, value *T, hint func(query string) string) *cachedSelect[T] {
	q := textinput.New()
	q.Prompt = "/" // as huh.NewSelect's filter
	q.Focus()      // fed only while huh's filter is open, which is when huh's is focused
	return &cachedSelect[T]{Select: s, value: value, query: q,
		win: window[T]{title: title, desc: description, options: options, height: height, hint: hint}}
}

// searchSep divides an option's key into its label, which is drawn, and
// more text huh's filter matches but the window does not draw (the model
// list's catalog keys and Hugging Face ids: huh's filter matches an
// option's key only, and has no filter function to give it). A unit
// separator: no key press types it.
const searchSep = "\x1f"

// searchKey is label with more text for the filter to match (searchSep).
func searchKey(label, more string) string {
	if more == "" {
		return label
	}
	return label + searchSep + more
}

// optionLabel is the drawn part of an option's key (searchKey).
func optionLabel(key string) string {
	label, _, _ := strings.Cut(key, searchSep)
	return label
}

// View is the select's drawing, kept until the next change: only the
// options in view are drawn (window.view), the filter's matches while a
// filter is open or set; huh draws until the window has a theme and a
// size.
func (c *cachedSelect[T]) View() string {
	if !c.drawn {
		v, ok := c.win.view(c)
		if !ok {
			v = c.Select.View()
		}
		c.view, c.drawn = v, true
	}
	return c.view
}

func (c *cachedSelect[T]) changed() { c.drawn, c.view = false, "" }

// Update passes msg to the select; the result is the wrapper, so the
// group keeps holding it.
func (c *cachedSelect[T]) Update(msg tea.Msg) (huh.Model, tea.Cmd) {
	c.changed()
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if c.move(msg) {
			return c, nil
		}
	case tea.PasteMsg, tea.BackgroundColorMsg:
	default:
		// The group sends every field a message of its own after each
		// update, for fields whose title or options follow other answers
		// (this one's are fixed); huh.Select then scrolls its own
		// viewport, measuring every option above the cursor. The window
		// draws, so that can wait until it cannot.
		if c.win.ready(c) {
			return c, nil
		}
	}
	open := c.GetFiltering()
	if open { // huh's filter input sees every message while the filter is open, before huh acts on it
		c.query, _ = c.query.Update(msg)
	}
	_, cmd := c.Select.Update(msg)
	if !filtered(c.Select) {
		// huh's filter is neither open nor set: it emptied it (cleared,
		// closed on no match). Known by its keys (huh enables esc only
		// then), not by the key just pressed: the form's keys may be a
		// copy (filterKeys.restore), and a cleared filter then stayed
		// drawn as "/70b" over the whole list.
		c.query.Reset()
	}
	c.win.follow(c)
	return c, cmd
}

func (c *cachedSelect[T]) Focus() tea.Cmd {
	c.changed()
	c.win.focused = true
	return c.Select.Focus()
}

func (c *cachedSelect[T]) Blur() tea.Cmd {
	c.changed()
	c.win.focused = false
	return c.Select.Blur()
}

func (c *cachedSelect[T]) WithTheme(t huh.Theme) huh.Field {
	c.changed()
	if c.win.theme == nil {
		c.win.theme = t // huh keeps the first theme
		// The filter input's styles, as huh.Select.WithTheme sets its own.
		focused := t.Theme(true).Focused.TextInput
		st := c.query.Styles()
		st.Cursor.Color = focused.Cursor.GetForeground()
		st.Focused.Prompt, st.Focused.Text, st.Focused.Placeholder = focused.Prompt, focused.Text, focused.Placeholder
		c.query.SetStyles(st)
	}
	c.Select.WithTheme(t)
	return c
}

func (c *cachedSelect[T]) WithKeyMap(k *huh.KeyMap) huh.Field {
	c.changed()
	c.keys = &k.Select
	c.Select.WithKeyMap(k)
	return c
}

func (c *cachedSelect[T]) WithWidth(w int) huh.Field {
	c.changed()
	c.win.width = w
	c.Select.WithWidth(w)
	c.win.follow(c)
	return c
}

func (c *cachedSelect[T]) WithHeight(h int) huh.Field {
	c.changed()
	c.win.height = h
	c.Select.WithHeight(h)
	c.win.follow(c)
	return c
}

func (c *cachedSelect[T]) WithPosition(p huh.FieldPosition) huh.Field {
	c.changed()
	c.Select.WithPosition(p)
	return c
}

// move does what huh.Select.Update does with up and down outside a
// filter (the cursor one option on, wrapping at the ends, the answer with
// it), without huh measuring every option above the cursor three times
// to scroll: the window scrolls; huh's own viewport scrolls to the cursor
// when huh next draws (a filter opens with the cursor on top: filter.go).
// false leaves the key to huh.
func (c *cachedSelect[T]) move(k tea.KeyPressMsg) bool {
	if c.keys == nil || c.value == nil || !c.win.ready(c) || filtered(c.Select) {
		return false
	}
	d := 0
	switch {
	case key.Matches(k, c.keys.Up):
		d = -1
	case key.Matches(k, c.keys.Down):
		d = 1
	default:
		return false
	}
	i, n := c.win.cursor(c.Select), len(c.win.options)
	if i < 0 || n == 0 {
		return false
	}
	*c.value = c.win.options[(i+d+n)%n].Value
	c.Select.Value(c.value) // puts huh's cursor on the answer
	c.win.follow(c)
	return true
}

// window draws a select as huh.Select.View does, but only the options in
// view: huh renders every option (wrapping and measuring each) to show a
// dozen. It follows the scroll position as huh's viewport moves it (the
// least scroll, in lines, that shows the cursor's option; a wrap-around
// lands at the other end, which is the same). With a filter open or set
// it draws the options huh's filter keeps (matches), their labels only
// (optionLabel), and the hint when none is kept.
// TestWindowDrawsAsHuh compares the two drawings key by key.
type window[T comparable] struct {
	title, desc string
	hint        func(query string) string // drawn when the filter matches nothing (cacheSelect)
	options     []huh.Option[T]
	theme       huh.Theme
	width       int
	height      int // huh's field height: the list is this less title and description
	focused     bool
	offset      int // first line in view

	// lines are the options drawn, unselected and selected, and start
	// the first line of each, for the width and focus they were drawn at.
	lines    [2][]string
	start    []int
	total    int
	linesFor struct {
		width   int
		focused bool
	}
}

// filtered reports whether a filter is open or set: then esc, which
// closes or clears it, is enabled.
func filtered[T comparable](s *huh.Select[T]) bool {
	if s.GetFiltering() {
		return true
	}
	for _, b := range s.KeyBinds() {
		if b.Enabled() && slices.Contains(b.Keys(), "esc") {
			return true
		}
	}
	return false
}

// cursor is the index of the highlighted option, -1 when none is.
func (w *window[T]) cursor(s *huh.Select[T]) int {
	v, ok := s.Hovered()
	if !ok {
		return -1
	}
	for i, o := range w.options {
		if o.Value == v {
			return i
		}
	}
	return -1
}

func (w *window[T]) styles() *huh.FieldStyles {
	st := w.theme.Theme(true)
	if w.focused {
		return &st.Focused
	}
	return &st.Blurred
}

// listHeight is the height of the options' viewport, as huh sizes it.
func (w *window[T]) listHeight(c *cachedSelect[T]) int {
	h := lipgloss.Height(w.titleView(c))
	if w.desc != "" {
		h += lipgloss.Height(w.descView())
	}
	return max(1, w.height-h)
}

// ready reports whether the window can draw: a theme and a size.
func (w *window[T]) ready(_ *cachedSelect[T]) bool {
	return w.theme != nil && w.width > 0 && w.height > 0
}

// matches are the indexes of the options huh's filter keeps for query,
// in order: those whose key holds it, case aside (huh.Select.filterFunc),
// every option for none.
func (w *window[T]) matches(query string) []int {
	q := strings.ToLower(query)
	out := make([]int, 0, len(w.options))
	for i, o := range w.options {
		if q == "" || strings.Contains(strings.ToLower(o.Key), q) {
			out = append(out, i)
		}
	}
	return out
}

// shown are the options drawn, as indexes, and the first line of each:
// all of them, or the filter's matches while a filter is open or set.
func (w *window[T]) shown(c *cachedSelect[T]) (idx, start []int, total int) {
	w.draw()
	if !filtered(c.Select) {
		idx = make([]int, len(w.options))
		for i := range idx {
			idx[i] = i
		}
		return idx, w.start, w.total
	}
	idx = w.matches(c.query.Value())
	start = make([]int, len(idx))
	for k, i := range idx {
		start[k] = total
		total += strings.Count(w.lines[0][i], "\n") + 1
	}
	return idx, start, total
}

// follow moves the window as huh's viewport moved: just enough to show
// the cursor's option.
func (w *window[T]) follow(c *cachedSelect[T]) {
	if !w.ready(c) {
		return
	}
	i := w.cursor(c.Select)
	if i < 0 {
		return
	}
	idx, start, total := w.shown(c)
	k := slices.Index(idx, i)
	if k < 0 {
		return
	}
	h := w.listHeight(c)
	top, n := start[k], strings.Count(w.lines[0][i], "\n")+1
	w.offset = min(w.offset, max(total-h, 0))
	if top < w.offset {
		w.offset = top
	} else if top+n > w.offset+h {
		w.offset = top + n - h
	}
}

// titleView is the title, or the filter: its input while open, its text
// while set (huh.Select.titleView).
func (w *window[T]) titleView(c *cachedSelect[T]) string {
	st := w.styles()
	var s string
	switch {
	case c.GetFiltering():
		s = c.query.View()
	case c.query.Value() != "":
		s = st.Description.Render("/" + c.query.Value())
	default:
		s = st.Title.Render(lipgloss.Wrap(w.title, w.width-st.Base.GetHorizontalFrameSize(), ",.-; "))
	}
	if c.Error() != nil {
		s += st.ErrorIndicator.String()
	}
	return s
}

func (w *window[T]) descView() string {
	st := w.styles()
	return st.Description.Render(lipgloss.Wrap(w.desc, w.width-st.Base.GetHorizontalFrameSize(), ",.-; "))
}

// draw renders every option unselected, once per width and focus, and
// where each starts.
func (w *window[T]) draw() {
	if w.linesFor.width == w.width && w.linesFor.focused == w.focused && w.lines[0] != nil {
		return
	}
	w.lines = [2][]string{make([]string, len(w.options)), make([]string, len(w.options))}
	w.linesFor.width, w.linesFor.focused = w.width, w.focused
	w.start = make([]int, len(w.options))
	w.total = 0
	for i := range w.options {
		w.start[i] = w.total
		w.total += strings.Count(w.option(i, false), "\n") + 1
	}
}

// option is option i drawn as huh.Select.renderOption draws it.
func (w *window[T]) option(i int, selected bool) string {
	k := 0
	if selected {
		k = 1
	}
	if l := w.lines[k][i]; l != "" {
		return l
	}
	st := w.styles()
	cursor := st.SelectSelector.String()
	cw := lipgloss.Width(cursor)
	label := lipgloss.Wrap(optionLabel(w.options[i].Key), w.width-st.Base.GetHorizontalFrameSize()-cw, ",.-; ")
	var l string
	if selected {
		l = lipgloss.JoinHorizontal(lipgloss.Left, cursor, st.SelectedOption.Render(label))
	} else {
		l = lipgloss.JoinHorizontal(lipgloss.Left, strings.Repeat(" ", cw), st.UnselectedOption.Render(label))
	}
	w.lines[k][i] = l
	return l
}

// view draws the select, or says it cannot (ok false): no theme or size
// yet.
func (w *window[T]) view(c *cachedSelect[T]) (string, bool) {
	if !w.ready(c) {
		return "", false
	}
	idx, start, _ := w.shown(c)
	sel := w.cursor(c.Select)
	h := w.listHeight(c)
	var lines []string
	for k, i := range idx {
		if start[k] >= w.offset+h {
			break
		}
		if next := start[k] + strings.Count(w.lines[0][i], "\n") + 1; next <= w.offset {
			continue
		}
		for j, l := range strings.Split(w.option(i, i == sel), "\n") {
			if n := start[k] + j; n >= w.offset && n < w.offset+h {
				lines = append(lines, l)
			}
		}
	}
	if len(idx) == 0 && w.hint != nil {
		if hint := w.hint(c.query.Value()); hint != "" {
			st := w.styles()
			lines = strings.Split(st.Description.Render(strings.Join(wrapFit(hint, w.width-st.Base.GetHorizontalFrameSize(), h), "\n")), "\n")
		}
	}
	list := lipgloss.NewStyle().Width(w.width).Height(h).Render(strings.Join(lines, "\n"))
	parts := []string{w.titleView(c)}
	if w.desc != "" {
		parts = append(parts, w.descView())
	}
	parts = append(parts, list)
	return w.styles().Base.Width(w.width).Height(w.height).Render(strings.Join(parts, "\n")), true
}

// wrapFit is text wrapped to width cells at its spaces (a word longer
// than a line, as Chinese is, broken where it must be) in at most h lines,
// the last ending in "…" when text needs more: a hint as long as a
// left-out model's reason (wizard.go) is cut, not dropped, on a short
// terminal. A name such as "docs/data.md" or "SD3.5" stays whole.
func wrapFit(text string, width, h int) []string {
	lines := strings.Split(lipgloss.Wrap(text, width, ""), "\n")
	if len(lines) <= h {
		return lines
	}
	lines = lines[:max(h, 1)]
	last := strings.TrimRight(lines[len(lines)-1], " ")
	lines[len(lines)-1] = ansi.Truncate(last, max(width-1, 0), "") + "…"
	return lines
}
