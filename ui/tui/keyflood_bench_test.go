package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkBrowseKeyAtCap: 10,000 keystrokes (no bracketed paste) into
// the market browser's filter when it already holds maxFilter runes, each
// followed by a View as the program draws after every message. 200,000
// such keys took about 3 minutes of CPU (attack round 15, finding 10):
// report ns/op (per 10,000 keys); no timed assertion here.
func BenchmarkBrowseKeyAtCap(b *testing.B) {
	m := start(b, newTestApp(b, testCatalog(b), Options{}), size(120, 40), ctrlB, tea.PasteMsg{Content: strings.Repeat("A", maxFilter)})
	key := runes("A")
	b.ResetTimer()
	for range b.N {
		var mm tea.Model = m
		for range 10_000 {
			mm, _ = mm.Update(key)
			_ = mm.View()
		}
	}
}

// A key the full filter drops changes nothing and draws nothing new: the
// line keeps its maxFilter runes, the frame is the one drawn before
// (app.sameAsLastFrame); the next key that does change it draws afresh.
func TestBrowseKeyAtCapDropped(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlB, tea.PasteMsg{Content: strings.Repeat("A", maxFilter)})
	before := screenText(m)
	m = drive(t, m, runes("x"))
	if !m.sameAsLastFrame || m.browse.input.Value() != strings.Repeat("A", maxFilter) {
		t.Fatalf("a key at the cap: dropped %v, line of %d runes; want dropped, the line as it was", m.sameAsLastFrame, len(m.browse.input.Value()))
	}
	if got := screenText(m); got != before {
		t.Errorf("the frame after a dropped key differs:\n%s\nwant:\n%s", got, before)
	}
	m = drive(t, m, tea.KeyPressMsg{Code: tea.KeyBackspace})
	if m.sameAsLastFrame || len(m.browse.input.Value()) != maxFilter-1 {
		t.Errorf("backspace at the cap: dropped %v, %d runes; want a change", m.sameAsLastFrame, len(m.browse.input.Value()))
	}
}
