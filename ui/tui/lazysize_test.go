package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestPagesSizedWhenShown walks every page after resizes with the form
// sized as setSize does it (only the page on screen, when it comes on
// screen) and as huh does it (every page on each resize), and wants the
// same screen at each step: a page that came on screen still sized for
// an older window would differ.
func TestPagesSizedWhenShown(t *testing.T) {
	eager := func(m app) app {
		w, h := m.wiz.width, m.wiz.height
		for _, g := range m.wiz.groups { // every page built so far, as huh.Form.WithWidth and WithHeight would
			if g != nil {
				g.WithWidth(max(w, 10)).WithHeight(max(h, 3))
			}
		}
		return m
	}
	resizes := []tea.Msg{size(120, 40), size(80, 24), size(200, 60), size(100, 30)}
	lazy := start(t, newTestApp(t, testCatalog(t), Options{}), resizes...)
	ref := eager(start(t, newTestApp(t, testCatalog(t), Options{}), resizes...))
	walk := append(bertAnswers()[:len(bertAnswers())-1], shiftTab, shiftTab, size(90, 28), shiftTab, shiftTab, shiftTab)
	pages := map[int]bool{}
	for i, k := range walk {
		lazy, ref = drive(t, lazy, k), eager(drive(t, ref, k))
		if lazy.screen != screenWizard {
			break
		}
		pages[lazy.wiz.focusedPage()] = true
		if got, want := lazy.View().Content, ref.View().Content; got != want {
			t.Fatalf("step %d (page %d): the screen differs from the form sized on every page\n got:\n%s\nwant:\n%s", i, lazy.wiz.focusedPage(), got, want)
		}
	}
	if len(pages) < 8 {
		t.Errorf("the walk saw %d pages, want most of them", len(pages))
	}
}

// TestPagesBuiltWhenShown: the first frame builds the first page only
// (huh draws every field of a page to build it), and a page is built
// once, when it first comes on screen; shift+tab on a page's first field
// goes back to the page before, onto its last field, as one huh.Form of
// every page did.
func TestPagesBuiltWhenShown(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	built := func() (n int) {
		for _, fs := range m.wiz.fields {
			if fs != nil {
				n++
			}
		}
		return n
	}
	if n := built(); n != 1 || m.wiz.fields[0] == nil {
		t.Fatalf("%d pages built at the start, want the first only", n)
	}
	m = drive(t, m, enter, enter) // framework, task: page 2
	if m.wiz.focusedPage() != 1 || built() != 2 {
		t.Fatalf("after page 1: on page %d with %d built, want page 2 of 2 built", m.wiz.focusedPage()+1, built())
	}
	page2 := m.wiz.form.GetFocusedField()
	m = drive(t, m, shiftTab)
	if last := m.wiz.fields[0][len(m.wiz.fields[0])-1]; m.wiz.focusedPage() != 0 || m.wiz.form.GetFocusedField() != last {
		t.Fatalf("shift+tab on page 2's first field: page %d, want page 1 on its last field", m.wiz.focusedPage()+1)
	}
	m = drive(t, m, enter)
	if m.wiz.focusedPage() != 1 || m.wiz.form.GetFocusedField() != page2 || built() != 2 {
		t.Errorf("forward again: page %d, %d built; want page 2 as it was, not rebuilt", m.wiz.focusedPage()+1, built())
	}
}
