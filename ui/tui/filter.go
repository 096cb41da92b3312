package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/serve"
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

// filterable is a single-choice select of any answer type (asSelect).
type filterable interface {
	huh.Field
	GetFiltering() bool
}

// hoverFunc is huh.Select[T].Hovered with T erased: the highlighted
// value, and false when the filter matches nothing.
type hoverFunc func() (any, bool)

// asSelect is f as a huh.Select of one of the answer types the
// configurator asks, with its Hovered; false for other fields (a
// MultiSelect's filter toggles nothing). huh's selects are generic, so
// each T is named here; TestEverySelectFilterable fails when a page
// asks a select of a type missing from this list.
func asSelect(f huh.Field) (filterable, hoverFunc, bool) {
	switch s := f.(type) {
	case *huh.Select[string]:
		return s, hoverOf(s), true
	case *cachedSelect[string]:
		return s, hoverOf(s.Select), true
	case *huh.Select[int]:
		return s, hoverOf(s), true
	case *huh.Select[model.Framework]:
		return s, hoverOf(s), true
	case *huh.Select[model.Task]:
		return s, hoverOf(s), true
	case *huh.Select[model.Precision]:
		return s, hoverOf(s), true
	case *huh.Select[model.Optimizer]:
		return s, hoverOf(s), true
	case *huh.Select[model.Strategy]:
		return s, hoverOf(s), true
	case *huh.Select[model.Pricing]:
		return s, hoverOf(s), true
	case *huh.Select[model.Recipe]:
		return s, hoverOf(s), true
	case *huh.Select[model.Loss]:
		return s, hoverOf(s), true
	case *huh.Select[model.QuantType]:
		return s, hoverOf(s), true
	case *huh.Select[serve.WeightFormat]:
		return s, hoverOf(s), true
	case *huh.Select[serve.KVCacheDType]:
		return s, hoverOf(s), true
	case *huh.Select[launch.Format]:
		return s, hoverOf(s), true
	}
	return nil, nil, false
}

func hoverOf[T comparable](s *huh.Select[T]) hoverFunc {
	return func() (any, bool) { return s.Hovered() }
}

var (
	keyHome = tea.KeyPressMsg{Code: tea.KeyHome}
	keyUp   = tea.KeyPressMsg{Code: tea.KeyUp}
	keyDown = tea.KeyPressMsg{Code: tea.KeyDown}
	keyEsc  = tea.KeyPressMsg{Code: tea.KeyEscape}
)

// filterKey handles a key on a focused select around the form's own
// update, and reports whether it did; false leaves the key to the form.
func (m *app) filterKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	f, hovered, ok := asSelect(m.wiz.form.GetFocusedField())
	if !ok {
		return nil, false
	}
	switch {
	case msg.String() == "/" && !f.GetFiltering():
		m.filter = &filterSession{field: f, saved: *m.a, value: f.GetValue()}
		// the cursor to the top first: huh keeps its index while the list
		// narrows, so index 0 is the best match from the first letter on
		c1 := m.wiz.form.Update(keyHome)
		c2 := m.wiz.form.Update(msg)
		*m.a = m.filter.saved
		return tea.Batch(c1, c2), true
	case m.filter == nil || m.filter.field != huh.Field(f):
		return nil, false
	case f.GetFiltering():
		_, matched := hovered()
		cmd := m.wiz.form.Update(msg)
		if f.GetFiltering() { // still typing or moving: nothing is committed
			// Moving through the matches keeps the highlighted one as the
			// answer, so the panel follows it as it does outside a search
			// (walk 49e: /qwen3, down showed Qwen3 8B on Qwen3 235B); esc
			// still goes back to the saved answers. Typing restores them:
			// each letter would jump the panel to another first match.
			if s := msg.String(); !matched || s != "up" && s != "down" && s != "ctrl+p" && s != "ctrl+n" {
				*m.a = m.filter.saved
			}
			return cmd, true
		}
		if msg.String() == "esc" || !matched { // abandoned: back to the answer
			if m.wiz.form.GetFocusedField() == huh.Field(f) && m.wiz.typing() {
				c := m.wiz.form.Update(keyEsc) // the filter's text too
				cmd = tea.Batch(cmd, c)
			}
			m.restoreCursor(hovered, m.filter.value)
			*m.a = m.filter.saved
			m.filter = nil
		}
		return cmd, true
	case msg.String() == "esc" && m.wiz.typing(): // esc on a set filter clears it: the answer stays
		// The answer is the one picked through the filter, or moved to in
		// it since; the others may have changed since it opened (other
		// pages), so they stay as they are.
		answer, saved := f.GetValue(), *m.a
		cmd := m.wiz.form.Update(msg)
		m.restoreCursor(hovered, answer)
		*m.a = saved
		m.filter = nil
		return cmd, true
	}
	return nil, false
}

// endKey passes end (go to the last option) to the form: huh's Select
// moves its cursor there without setting the answer (v2.0.3 GotoBottom,
// unlike GotoTop), so the panel stayed on the old answer (walk 49e: End
// on Task showed "inference (serving)" highlighted, the panel qlora). Up
// then down sets it as any move does.
func (m *app) endKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	f, _, ok := asSelect(m.wiz.form.GetFocusedField())
	if !ok || f.GetFiltering() || !key.Matches(msg, m.wiz.keys.Select.GotoBottom) {
		return nil, false
	}
	c1 := m.wiz.form.Update(msg)
	c2 := m.wiz.form.Update(keyUp)
	return tea.Batch(c1, c2, m.wiz.form.Update(keyDown)), true
}

// restoreCursor moves the select's cursor back onto value (up wraps, so
// at most one turn): huh keeps the cursor's index when the list narrows
// or widens, so it lands on another option, and the answer with it.
func (m *app) restoreCursor(hovered hoverFunc, value any) {
	for range 1000 {
		if v, ok := hovered(); !ok || v == value {
			break
		}
		m.wiz.form.Update(keyUp)
	}
}

// updateFormOnly passes msg to the form.
func (m *app) updateFormOnly(msg tea.Msg) tea.Cmd {
	return m.wiz.form.Update(msg)
}
