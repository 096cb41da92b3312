package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// q and ctrl+c ask first when the answers were not exported; with
// nothing changed they quit at once.
func TestQuitAsksFirst(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	if _, cmd := m.Update(runes("q")); cmd == nil || cmd() != tea.Quit() {
		t.Error("q with nothing changed did not quit")
	}
	m = drive(t, m, down) // framework: TensorFlow
	m = drive(t, m, runes("q"))
	if m.dialog == nil || m.dialog.kind != dialogQuit || !strings.Contains(ansi.Strip(m.View().Content), "Quit without exporting?") {
		t.Fatalf("q with changes did not ask:\n%s", ansi.Strip(m.View().Content))
	}
	m = drive(t, m, runes("n"))
	if m.dialog != nil {
		t.Error("n did not close the question")
	}
	m = drive(t, m, ctrlC)
	if _, cmd := m.Update(ctrlC); cmd == nil || cmd() != tea.Quit() {
		t.Error("ctrl+c twice did not quit")
	}
	// In a text field q is a letter.
	m = toPage(t, m, "Batch and length")
	m = drive(t, m, runes("q"))
	if m.dialog != nil || !strings.HasSuffix(m.a.Batch, "q") {
		t.Errorf("q in a text field: dialog %v, batch %q", m.dialog != nil, m.a.Batch)
	}
}

// Every key the help shows works where it is shown.
func TestHelpKeys(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m = drive(t, m, runes("?"))
	if !m.fullHelp || !strings.Contains(ansi.Strip(m.View().Content), "all offers") {
		t.Fatal("? did not open the full help")
	}
	m = drive(t, m, runes("?"), enter, enter) // model page
	m = drive(t, m, esc)
	if m.wiz.pages[m.wiz.focusedPage()].title != "Workload" {
		t.Errorf("esc did not go to the previous page")
	}
	m = drive(t, m, ctrlO)
	if m.screen != screenOffers {
		t.Fatal("ctrl+o did not show the offers")
	}
	before := m.offers.sort
	m = drive(t, m, runes("s"))
	if m.offers.sort == before || m.a.extra.Sort != m.res.rec.Sort {
		t.Errorf("s: sort %s → %s (answers %s, ranking %s)", before, m.offers.sort, m.a.extra.Sort, m.res.rec.Sort)
	}
	m = drive(t, m, runes("p"))
	if m.offers.provider == "" {
		t.Error("p did not filter by provider")
	}
	for _, i := range m.offers.shown {
		if m.offers.all[i].Instance.Provider != m.offers.provider {
			t.Errorf("filter %s shows %s", m.offers.provider, m.offers.all[i].Instance.Provider)
		}
	}
	m = drive(t, m, down, enter)
	if m.screen != screenDetail {
		t.Fatal("enter did not open the detail")
	}
	m = drive(t, m, ctrlE)
	if m.dialog == nil {
		t.Fatal("ctrl+e did not open the export dialog")
	}
	m = drive(t, m, esc, esc, esc)
	if m.dialog != nil || m.screen != screenWizard {
		t.Errorf("esc did not close the dialog, then go back twice: screen %v", m.screen)
	}
}

// Trial 15c B3: ? then esc went to the previous page and left the full
// help open. esc closes the help first and stays where it is (as huh and
// bubbles close an overlay first); the next esc goes back. On a list
// whose filter is open, esc still belongs to the filter.
func TestEscClosesHelp(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Model")
	closed := screenText(m)
	m = drive(t, m, runes("?"))
	if !m.fullHelp || !strings.Contains(screenText(m), "close help") {
		t.Fatalf("? did not open the full help, or it does not say what esc does:\n%s", screenText(m))
	}
	m = drive(t, m, esc)
	if m.fullHelp || m.wiz.pages[m.wiz.focusedPage()].title != "Model" {
		t.Fatalf("? esc: full help %v on page %q, want the help closed on Model", m.fullHelp, m.wiz.pages[m.wiz.focusedPage()].title)
	}
	if got := screenText(m); got != closed {
		t.Errorf("? esc does not give back the screen before ?:\n%s\nwant:\n%s", got, closed)
	}
	m = drive(t, m, esc)
	if title := m.wiz.pages[m.wiz.focusedPage()].title; title != "Workload" {
		t.Errorf("esc after the help closed: page %q, want Workload", title)
	}

	m = drive(t, toPage(t, m, "Model"), runes("?"), runes("/"), runes("q"), esc)
	if !m.fullHelp || m.wiz.pages[m.wiz.focusedPage()].title != "Model" || m.wiz.typing() {
		t.Errorf("? / q esc: full help %v, page %q, filter open %v; want esc to close the filter only",
			m.fullHelp, m.wiz.pages[m.wiz.focusedPage()].title, m.wiz.typing())
	}

	m = drive(t, m, esc, ctrlO, runes("?"), esc)
	if m.screen != screenOffers || m.fullHelp {
		t.Errorf("offers, ? esc: screen %v, full help %v; want the offers with the help closed", m.screen, m.fullHelp)
	}
}

// Escape twice quickly (#31: tmux send-keys Escape Escape) arrives as one
// read, "\x1b\x1b", which bubbletea v2 delivers as alt+esc. It was
// swallowed; it acts as two escapes, as it would typed slowly: from an
// offer's detail back to the wizard, and two pages back in the wizard.
func TestEscapeBurst(t *testing.T) {
	altEsc := tea.KeyPressMsg{Code: tea.KeyEscape, Mod: tea.ModAlt}
	if altEsc.String() != "alt+esc" {
		t.Fatalf("the burst reads %q", altEsc.String())
	}
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m = drive(t, m, ctrlO, enter)
	if m.screen != screenDetail {
		t.Fatal("enter did not open the detail")
	}
	m = drive(t, m, altEsc)
	if m.screen != screenWizard {
		t.Errorf("esc esc on the detail: screen %v, want the wizard", m.screen)
	}
	// As esc, esc one at a time: back two of the pages shown.
	slow := drive(t, toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Batch and length"), esc, esc)
	m = toPage(t, m, "Batch and length")
	first := m.wiz.focusedPage()
	m = drive(t, m, altEsc)
	if got, want := m.wiz.focusedPage(), slow.wiz.focusedPage(); got != want || want >= first {
		t.Errorf("esc esc on page %d: page %d, want %d as esc, esc", first, got, want)
	}
	m = drive(t, m, ctrlE)
	if m.dialog == nil {
		t.Fatal("ctrl+e opened no dialog")
	}
	slow = drive(t, slow, ctrlE, esc, esc)
	m = drive(t, m, altEsc)
	if m.dialog != nil || m.wiz.focusedPage() != slow.wiz.focusedPage() {
		t.Errorf("esc esc on the export dialog: dialog %v, page %d; want it closed and page %d", m.dialog != nil, m.wiz.focusedPage(), slow.wiz.focusedPage())
	}
}

// TestHelpListsA: the full help's ctrl+t line names a, so the help lists
// a too: on the questions as where to press it, on the offers as the key
// itself (a new user read "plan (once a adds a phase)" with no a anywhere).
func TestHelpListsA(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), runes("?"))
	s := screenText(m)
	for _, want := range []string{"a         add a phase (on an offer: ctrl+o)", "ctrl+t    plan (a adds its first phase)"} {
		if !strings.Contains(s, want) {
			t.Errorf("the questions' full help lacks %q:\n%s", want, s)
		}
	}
	m = start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlO, runes("?"))
	if s := screenText(m); !strings.Contains(s, "a add to plan") || strings.Contains(s, "on an offer: ctrl+o") {
		t.Errorf("the offers' full help: want a add to plan, not the questions' hint:\n%s", s)
	}
}

// TestHelpSwitchesLanguage: L on the full help redraws the configurator
// in 简体中文, on the page shown, the answers kept; L again goes back to
// English. Not in a text field, where L is a letter.
func TestHelpSwitchesLanguage(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Model")
	before, page := m.a.key(), m.wiz.focusedPage()
	m = drive(t, m, runes("?"))
	if s := screenText(m); !strings.Contains(s, "L      简体中文") {
		t.Fatalf("the full help does not offer L 简体中文:\n%s", s)
	}
	m = drive(t, m, runes("L"))
	s := screenText(m)
	if !m.lang.Chinese() || !strings.Contains(s, "语言：简体中文") || !strings.Contains(s, "L      English") || !strings.Contains(s, "模型") {
		t.Errorf("L: Chinese %v; want the screen in Chinese, the help offering English:\n%s", m.lang.Chinese(), s)
	}
	if m.a.key() != before || m.wiz.focusedPage() != page {
		t.Errorf("L: answers changed %v, page %d; want the answers and page %d kept", m.a.key() != before, m.wiz.focusedPage(), page)
	}
	m = drive(t, m, runes("L"))
	if m.lang.Chinese() || !strings.Contains(screenText(m), "language: English") {
		t.Errorf("L again: want English back:\n%s", screenText(m))
	}
	m = drive(t, m, esc, runes("L")) // the help closed: L is no key
	if m.lang.Chinese() {
		t.Error("L without the help switched the language")
	}
}
