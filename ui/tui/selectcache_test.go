package tui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The model list draws only the options in view (window); after every
// key and resize its drawing is huh's own, character for character: a
// plain huh.Select built alike, sized alike and given the same keys (and
// the group's per-update message, here nil) draws the same.
func TestWindowDrawsAsHuh(t *testing.T) {
	home, end := tea.KeyPressMsg{Code: tea.KeyHome}, tea.KeyPressMsg{Code: tea.KeyEnd}
	halfDown, halfUp := ctrl('d'), ctrl('u')
	var keys []tea.Msg
	for range 45 {
		keys = append(keys, down)
	}
	for range 45 {
		keys = append(keys, up)
	}
	keys = append(keys, end, up, up, home, halfDown, halfDown, halfUp, up, down, size(80, 24), down, down, size(200, 60), up,
		size(60, 20), end, down, size(120, 40), up, up, up, down)
	for _, sz := range []tea.WindowSizeMsg{size(120, 40), size(80, 24), size(100, 30)} {
		m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), sz), "Model")
		c, ok := m.wiz.form.GetFocusedField().(*cachedSelect[string])
		if !ok {
			t.Fatalf("the model page's field is a %T", m.wiz.form.GetFocusedField())
		}
		if _, ok := c.win.view(c); !ok {
			t.Fatalf("%dx%d: the window does not draw on the model page", sz.Width, sz.Height)
		}
		answer := *c.value
		labels := slices.Clone(c.win.options) // what the window draws of each (searchKey)
		for i := range labels {
			labels[i].Key = optionLabel(labels[i].Key)
		}
		twin := newSelect[string](c.win.theme).Title(c.win.title).Description(c.win.desc).
			Options(labels...).Height(c.win.height).Value(&answer)
		twin.WithKeyMap(m.wiz.keys)
		twin.WithWidth(c.win.width)
		twin.Focus()
		compared := 0
		for i, k := range keys {
			m = drive(t, m, k)
			if _, ok := k.(tea.KeyPressMsg); ok {
				twin.Update(k)
				if k == end { // huh's end sets no answer; the configurator's does (endKey)
					twin.Update(up)
					twin.Update(down)
				}
			}
			twin.WithWidth(c.win.width)
			twin.WithHeight(c.win.height)
			twin.Update(nil)
			c.changed()
			fast, ok := c.win.view(c)
			if !ok {
				continue
			}
			compared++
			if slow := twin.View(); fast != slow {
				t.Fatalf("%dx%d, after key %d (%v): the window draws\n%s\nhuh draws\n%s", sz.Width, sz.Height, i, k, fast, slow)
			}
			if answer != *c.value {
				t.Fatalf("%dx%d, after key %d (%v): the answer is %q, huh's %q", sz.Width, sz.Height, i, k, *c.value, answer)
			}
		}
		if compared < len(keys)*9/10 {
			t.Errorf("%dx%d: the window drew after %d of %d keys", sz.Width, sz.Height, compared, len(keys))
		}
	}
}

// With a filter open, the window draws the filter and the options it
// keeps as huh draws them (issue 31: the window draws while
// filtering, so that the text the filter also matches, searchKey, never
// shows). The twin's options are the labels alone; the queries match
// labels, so both keep the same options.
func TestWindowFiltersAsHuh(t *testing.T) {
	backspace := tea.KeyPressMsg{Code: tea.KeyBackspace}
	keys := msgs(runes("/"), typed("llama"), down, down, backspace, backspace, up, typed("ma 3"), down)
	for _, sz := range []tea.WindowSizeMsg{size(120, 40), size(80, 24)} {
		m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), sz), "Model")
		c := m.wiz.form.GetFocusedField().(*cachedSelect[string])
		answer := *c.value
		labels := slices.Clone(c.win.options)
		for i := range labels {
			labels[i].Key = optionLabel(labels[i].Key)
		}
		twin := newSelect[string](c.win.theme).Title(c.win.title).Description(c.win.desc).
			Options(labels...).Height(c.win.height).Value(&answer)
		twin.WithKeyMap(m.wiz.keys)
		twin.WithWidth(c.win.width)
		twin.Focus()
		for i, k := range keys {
			m = drive(t, m, k)
			if k == runes("/") {
				twin.Update(tea.KeyPressMsg{Code: tea.KeyHome}) // filter.go starts a filter at the top
			}
			twin.Update(k)
			twin.Update(nil)
			c.changed()
			fast, ok := c.win.view(c)
			if !ok {
				t.Fatalf("%dx%d, after key %d (%v): the window does not draw", sz.Width, sz.Height, i, k)
			}
			if slow := twin.View(); fast != slow {
				t.Fatalf("%dx%d, after key %d (%v): the window draws\n%s\nhuh draws\n%s", sz.Width, sz.Height, i, k, fast, slow)
			}
		}
		if !c.GetFiltering() || c.query.Value() != "llama 3" {
			t.Errorf("%dx%d: the filter is not open on %q: %q", sz.Width, sz.Height, "llama 3", c.query.Value())
		}
	}
}

// TestModelSearchShownIsApplied: the model list's search line and the
// list agree after a search is left: abandoned with esc, both are
// cleared (the line kept "/70b" over the whole list, before and after
// leaving the page and coming back); picked with enter, both stay.
func TestModelSearchShownIsApplied(t *testing.T) {
	modelPane := func(m app) string {
		v := screenText(m)
		if i := strings.Index(v, "Model"); i >= 0 {
			v = v[i:]
		}
		var left []string // the form's column, left of the panel
		for _, l := range strings.Split(v, "\n") {
			if i := strings.Index(l, "│"); i >= 0 {
				l = l[:i]
			}
			left = append(left, l)
		}
		return strings.Join(left, "\n")
	}
	for _, c := range []struct {
		name   string
		keys   []tea.Msg
		search bool // the search is kept
	}{
		{"esc", msgs(esc), false},
		{"esc, then next page and back", msgs(esc, enter, esc), false},
		{"enter, then back", msgs(enter, esc), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
			m = drive(t, m, enter, enter)
			m = drive(t, m, msgs(typed("/70b"), c.keys)...)
			if got := focusedTitle(m); got != "Model" {
				t.Fatalf("on page %q, want Model", got)
			}
			pane := modelPane(m)
			shown, whole := strings.Contains(pane, "/70b"), strings.Contains(pane, "Qwen")
			if shown != c.search || whole == c.search {
				t.Errorf("search line shown %v, whole list %v; want the search kept %v in both:\n%s", shown, whole, c.search, pane)
			}
		})
	}
}
