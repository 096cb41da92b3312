package tui

import (
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// A bracketed paste into the browser's filter is typed into the line (it
// was dropped), and filters as typed text does.
func TestBrowsePaste(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlB, tea.PasteMsg{Content: "a100-80gb:8"})
	if got := m.browse.input.Value(); got != "a100-80gb:8" {
		t.Fatalf("filter line %q after a paste, want a100-80gb:8", got)
	}
	if rows := shownRows(&m.browse); len(rows) != 1 || rows[0] != "aws p4de.24xlarge us-east-1 40.97" {
		t.Errorf("rows %v, want the one 8 × A100 80GB type", rows)
	}
	// A paste elsewhere (the questions) is not the browser's.
	w := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), tea.PasteMsg{Content: "l4"})
	if w.browse.input.Value() != "" {
		t.Errorf("a paste on the questions reached the browser: %q", w.browse.input.Value())
	}
}

// The filter is bounded: 60 KB pasted or typed keeps maxFilter runes, and
// the line under the list says so in one line.
func TestBrowseFilterBounded(t *testing.T) {
	long := strings.Repeat("l4 ", 20_000) // 60 KB
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlB, tea.PasteMsg{Content: long})
	if n := utf8.RuneCountInString(m.browse.input.Value()); n != maxFilter {
		t.Fatalf("filter holds %d runes after a 60 KB paste, want %d", n, maxFilter)
	}
	m = drive(t, m, runes("x")) // typed past the end: still bounded
	if n := utf8.RuneCountInString(m.browse.input.Value()); n != maxFilter {
		t.Errorf("filter holds %d runes after a key at the limit, want %d", n, maxFilter)
	}
	want := "the filter takes at most 512 characters"
	lines := strings.Split(screenText(m), "\n")
	found := 0
	for _, l := range lines {
		if strings.Contains(l, want) {
			found++
		}
	}
	if found != 1 {
		t.Errorf("%d lines say %q:\n%s", found, want, screenText(m))
	}
	if short := drive(t, m, tea.KeyPressMsg{Code: tea.KeyBackspace}); strings.Contains(screenText(short), want) {
		t.Errorf("the note stays below the limit")
	}
}
