package tui

import (
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
		twin := newSelect[string](c.win.theme).Title(c.win.title).Description(c.win.desc).
			Options(c.win.options...).Height(c.win.height).Value(&answer)
		twin.WithKeyMap(m.wiz.keys)
		twin.WithWidth(c.win.width)
		twin.Focus()
		compared := 0
		for i, k := range keys {
			m = drive(t, m, k)
			if _, ok := k.(tea.KeyPressMsg); ok {
				twin.Update(k)
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
