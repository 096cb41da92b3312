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
