package tui

import (
	"reflect"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// A select's "/" filter in huh moves the committed answer: the cursor
// keeps its index into the shrinking list (so the best match may be
// scrolled off, and the highlight lands on whatever is at that index), a
// filter with no match closes with the cursor on the first option, and
// enter then commits it (QLoRA silently became "train"). filterSession
// keeps the answers as they were while a filter is open, starts every
// filter with the cursor on the first match, and when the filter is
// abandoned (esc, or enter on no match) puts the cursor back on the
// answer.
type filterSession struct {
	field huh.Field
	saved answers // the answers when the filter opened
	value any     // the field's answer then
}

// filterable is what every huh.Select[T] has, whatever T.
type filterable interface {
	huh.Field
	GetFiltering() bool
}

// hovered is the select's highlighted value, and false when the filter
// matches nothing (huh.Select[T].Hovered, for any T).
func hovered(f huh.Field) (any, bool) {
	m := reflect.ValueOf(f).MethodByName("Hovered")
	if !m.IsValid() {
		return nil, false
	}
	out := m.Call(nil)
	return out[0].Interface(), out[1].Bool()
}

var (
	keyHome = tea.KeyPressMsg{Code: tea.KeyHome}
	keyUp   = tea.KeyPressMsg{Code: tea.KeyUp}
	keyEsc  = tea.KeyPressMsg{Code: tea.KeyEscape}
)

// filterKey handles a key on a focused select around the form's own
// update, and reports whether it did; false leaves the key to the form.
func (m *app) filterKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	f, ok := m.wiz.form.GetFocusedField().(filterable)
	if !ok || !isSelect(f) {
		return nil, false
	}
	switch {
	case msg.String() == "/" && !f.GetFiltering():
		m.filter = &filterSession{field: f, saved: *m.a, value: f.GetValue()}
		// the cursor to the top first: huh keeps its index while the list
		// narrows, so index 0 is the best match from the first letter on
		_, c1 := m.wiz.form.Update(keyHome)
		_, c2 := m.wiz.form.Update(msg)
		*m.a = m.filter.saved
		return tea.Batch(c1, c2), true
	case m.filter == nil || m.filter.field != huh.Field(f):
		return nil, false
	case f.GetFiltering():
		_, matched := hovered(f)
		_, cmd := m.wiz.form.Update(msg)
		if f.GetFiltering() { // still typing or moving: nothing is committed
			*m.a = m.filter.saved
			return cmd, true
		}
		if msg.String() == "esc" || !matched { // abandoned: back to the answer
			if ff, ok := m.wiz.form.GetFocusedField().(filterable); ok && ff == f && m.wiz.typing() {
				_, c := m.wiz.form.Update(keyEsc) // the filter's text too
				cmd = tea.Batch(cmd, c)
			}
			m.restoreCursor(f)
			m.filter = nil
		}
		return cmd, true
	case msg.String() == "esc" && m.wiz.typing(): // esc on a set filter clears it: back to the answer
		_, cmd := m.wiz.form.Update(msg)
		m.restoreCursor(f)
		m.filter = nil
		return cmd, true
	}
	return nil, false
}

// restoreCursor moves the select's cursor back onto the answer the filter
// opened on (up wraps, so at most one turn), and the answers with it.
func (m *app) restoreCursor(f filterable) {
	s := m.filter
	for range 1000 {
		if v, ok := hovered(f); !ok || v == s.value {
			break
		}
		m.wiz.form.Update(keyUp)
	}
	*m.a = s.saved
}

// isSelect reports whether f is a huh.Select (of any T), not a
// MultiSelect, whose filter toggles nothing.
func isSelect(f huh.Field) bool {
	t := reflect.TypeOf(f)
	return t.Kind() == reflect.Pointer && strings.HasPrefix(t.Elem().Name(), "Select[") &&
		reflect.ValueOf(f).MethodByName("Hovered").IsValid()
}

// updateFormOnly passes msg to the form.
func (m *app) updateFormOnly(msg tea.Msg) tea.Cmd {
	f, cmd := m.wiz.form.Update(msg)
	m.wiz.form = f.(*huh.Form)
	return cmd
}
