package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
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
}

// cacheSelect wraps s; title, description, options and height are what
// s was built with (huh does not say).
func cacheSelect[T comparable](s *huh.Select[T], title, description string, options []huh.Option[T], height int, value *T) *cachedSelect[T] {
	return &cachedSelect[T]{Select: s, value: value, win: window[T]{title: title, desc: description, options: options, height: height}}
}

// View is the select's drawing, kept until the next change: only the
// options in view are drawn (window.view), or huh draws them all while a
// filter is open or set.
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
		// draws while no filter is open, so that can wait for one.
		if c.win.ready(c) {
			return c, nil
		}
	}
	_, cmd := c.Select.Update(msg)
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
	if c.keys == nil || c.value == nil || !c.win.ready(c) {
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
// lands at the other end, which is the same), and draws only while no
// filter is open or set (then the options shown are huh's to know).
// TestWindowDrawsAsHuh compares the two drawings key by key.
type window[T comparable] struct {
	title, desc string
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

// ready reports whether the window can draw: a theme and a size, no
// filter.
func (w *window[T]) ready(c *cachedSelect[T]) bool {
	return w.theme != nil && w.width > 0 && w.height > 0 && !filtered(c.Select)
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
	w.draw()
	h := w.listHeight(c)
	top, n := w.start[i], strings.Count(w.lines[0][i], "\n")+1
	w.offset = min(w.offset, max(w.total-h, 0))
	if top < w.offset {
		w.offset = top
	} else if top+n > w.offset+h {
		w.offset = top + n - h
	}
}

func (w *window[T]) titleView(c *cachedSelect[T]) string {
	st := w.styles()
	s := st.Title.Render(lipgloss.Wrap(w.title, w.width-st.Base.GetHorizontalFrameSize(), ",.-; "))
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
	label := lipgloss.Wrap(w.options[i].Key, w.width-st.Base.GetHorizontalFrameSize()-cw, ",.-; ")
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
// yet, or a filter open or set.
func (w *window[T]) view(c *cachedSelect[T]) (string, bool) {
	if !w.ready(c) {
		return "", false
	}
	w.draw()
	sel := w.cursor(c.Select)
	h := w.listHeight(c)
	var lines []string
	for i := range w.options {
		if w.start[i] >= w.offset+h {
			break
		}
		if next := w.start[i] + strings.Count(w.lines[0][i], "\n") + 1; next <= w.offset {
			continue
		}
		for j, l := range strings.Split(w.option(i, i == sel), "\n") {
			if n := w.start[i] + j; n >= w.offset && n < w.offset+h {
				lines = append(lines, l)
			}
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
