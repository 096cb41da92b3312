package tui

import (
	"strings"
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

// pageTitled is the index of the page titled title.
func pageTitled(t *testing.T, m app, title string) int {
	t.Helper()
	for i, p := range m.wiz.pages {
		if p.title == title {
			return i
		}
	}
	t.Fatalf("no page %q", title)
	return -1
}

// Trial 15c R1 and B1: with a model picked through a / filter (the
// filter stays set on the list), shift+tab on the page's first field
// still goes to the page before, as huh did with one form of every page;
// and esc on that filter later clears it keeping the pick and the answers
// given since (it went back to the answer the filter had opened on).
func TestPageMovesWithAFilterSet(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Model")
	modelPage := m.wiz.focusedPage()
	m = drive(t, m, msgs(runes("/"), typed("bert-large"), enter)...)
	if m.a.Model != "bert-large" || m.wiz.focusedPage() <= modelPage {
		t.Fatalf("picking through the filter: model %q on page %d", m.a.Model, m.wiz.focusedPage()+1)
	}
	m = drive(t, m, enter) // an answer on the next page
	answered := *m.a
	for range 20 {
		if m.wiz.focusedPage() <= modelPage {
			break
		}
		m = drive(t, m, shiftTab)
	}
	if m.wiz.focusedPage() != modelPage || !m.wiz.typing() {
		t.Fatalf("back on the model page: page %d, filter set %t", m.wiz.focusedPage()+1, m.wiz.typing())
	}
	m = drive(t, m, shiftTab)
	if m.wiz.focusedPage() >= modelPage {
		t.Fatalf("shift+tab on the model page with its filter set stayed on page %d", m.wiz.focusedPage()+1)
	}
	m = drive(t, m, enter) // forward onto the model page again, its filter still set
	if m.wiz.focusedPage() != modelPage || !m.wiz.typing() {
		t.Fatalf("forward again: page %d, filter set %t", m.wiz.focusedPage()+1, m.wiz.typing())
	}
	m = drive(t, m, esc)
	if m.a.Model != "bert-large" || m.a.key() != answered.key() {
		t.Errorf("esc on the set filter: model %q (want bert-large), answers changed: %t", m.a.Model, m.a.key() != answered.key())
	}
}

// Trial 15c R2 and R3: an invalid batch size kept by esc is named on the
// offers screen although the wizard was rebuilt on the page before (the
// page holding it not built yet), and the next key clears the footer's
// "kept as typed", shift+tab included.
func TestInvalidAnswerNamedAfterRebuild(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m = drive(t, m, msgs(enter, up, up, enter, runes("/"), typed("bert-large"), enter, enter, replace("x"))...)
	batchPage := m.wiz.focusedPage()
	if m.wiz.pages[batchPage].title != "Batch and length" {
		t.Fatalf("on page %q", m.wiz.pages[batchPage].title)
	}
	m = drive(t, m, esc) // back, keeping "x"
	if !m.footer.isErr || !strings.Contains(m.footer.status, "kept as typed") || m.wiz.focusedPage() >= batchPage {
		t.Fatalf("esc with an invalid batch: page %d, footer %q", m.wiz.focusedPage()+1, m.footer.status)
	}
	cleared := drive(t, m, shiftTab)
	if cleared.footer.status != "" {
		t.Errorf("shift+tab left the footer saying %q", cleared.footer.status)
	}
	offers := drive(t, m, ctrlO)
	if !strings.Contains(offers.offers.where, "Batch and length") {
		t.Errorf("the offers screen names %q, want the batch page", offers.offers.where)
	}
}

// A page shown for the first time by moving back (the wizard rebuilt on
// its last page after the offers) is entered at its last field, as if it
// had been walked through, not at its first.
func TestPageEnteredBackAtItsLastField(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m = drive(t, m, append(bertAnswers(), esc)...) // the offers, then back: the last page, rebuilt
	last := m.wiz.focusedPage()
	page := last
	for range 100 { // every page down to the first (built at the start, never shown: trial 15d N1)
		if m.wiz.focusedPage() == 0 {
			break
		}
		m = drive(t, m, shiftTab)
		if m.wiz.focusedPage() == page {
			continue
		}
		if m.wiz.focusedPage() > page {
			t.Fatalf("shift+tab moved forward, to page %d", m.wiz.focusedPage()+1)
		}
		page = m.wiz.focusedPage()
		fs := m.wiz.fields[page]
		if got := m.wiz.form.GetFocusedField(); got != fs[len(fs)-1] {
			t.Errorf("back onto %q: not on its last field", m.wiz.pages[page].title)
		}
	}
	if m.wiz.focusedPage() != 0 {
		t.Errorf("shift+tab did not reach the first page (on page %d)", m.wiz.focusedPage()+1)
	}
}
