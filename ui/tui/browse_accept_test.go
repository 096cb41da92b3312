package tui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestBrowseEnterAcceptsFilter: enter on the filter line accepts it and
// gives the list the focus, picking nothing; a second enter picks the row
// under the cursor. One enter used to pick the top row at once and
// narrow the whole request (walk: "H100:8 regions=europe" enter pinned
// primeintellect), where k9s (/ then enter) and Charm's list filter only
// accept the filter.
func TestBrowseEnterAcceptsFilter(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlB)
	before := m.a.key()
	help := func(m app) string { s := strings.Split(screenText(m), "\n"); return s[len(s)-1] }
	if h := help(m); !strings.Contains(h, "enter accept filter") || strings.Contains(h, "pick GPU") {
		t.Errorf("on the line, help %q: want enter to accept the filter, not pick", h)
	}

	m = drive(t, m, msgs(typed("a100-80gb:8"), enter)...)
	if m.screen != screenBrowse || m.a.key() != before || len(m.a.GPUKeys) != 0 {
		t.Fatalf("one enter: screen %v, GPU limit %v, answers changed %v; want the browser, nothing picked",
			m.screen, m.a.GPUKeys, m.a.key() != before)
	}
	if !m.browse.listing || m.browse.input.Focused() {
		t.Errorf("one enter: listing %v, line focused %v; want the list focused", m.browse.listing, m.browse.input.Focused())
	}
	if h := help(m); !strings.Contains(h, "enter pick GPU") || !strings.Contains(h, "/ edit filter") {
		t.Errorf("on the list, help %q: want enter pick GPU and / edit filter", h)
	}

	// / goes back to the line without typing itself; typing on the list
	// edits the line too.
	edited := drive(t, m, runes("/"))
	if edited.browse.listing || edited.browse.input.Value() != "a100-80gb:8" {
		t.Errorf("/ on the list: listing %v, line %q; want the line focused, unchanged", edited.browse.listing, edited.browse.input.Value())
	}
	edited = drive(t, m, msgs(typed(" pricing=spot"))...)
	if edited.browse.listing || edited.browse.input.Value() != "a100-80gb:8 pricing=spot" {
		t.Errorf("typing on the list: listing %v, line %q; want the line focused, the text added", edited.browse.listing, edited.browse.input.Value())
	}
	if edited = drive(t, edited, enter); edited.screen != screenBrowse || len(edited.a.GPUKeys) != 0 {
		t.Errorf("enter after editing: screen %v, GPU limit %v; want it to accept the line again", edited.screen, edited.a.GPUKeys)
	}
	pasted, _ := m.Update(tea.PasteMsg{Content: " --nvlink"})
	if p := pasted.(app); p.browse.listing || p.browse.input.Value() != "a100-80gb:8 --nvlink" {
		t.Errorf("a paste on the list: listing %v, line %q; want it in the line", p.browse.listing, p.browse.input.Value())
	}

	m = drive(t, m, enter)
	if m.screen != screenWizard || len(m.a.GPUKeys) != 1 || m.a.GPUKeys[0] != "a100-80gb" {
		t.Errorf("the second enter: screen %v, GPU limit %v; want the questions, a100-80gb", m.screen, m.a.GPUKeys)
	}
	// The browser opens on the line again.
	if m = drive(t, m, ctrlB); m.browse.listing || !m.browse.input.Focused() {
		t.Errorf("ctrl+b again: listing %v; want the line focused", m.browse.listing)
	}
}

// TestBrowseClearRestores: ctrl+x puts back the providers and regions
// answered before the pick (a second pick does not lose them), keeps a
// choice made after it, and the Where page says what is chosen and by
// what, where its long list hides the ✓.
func TestBrowseClearRestores(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m.a.Providers, m.a.Regions = []string{"aws", "lambda"}, []string{"us-east-1"}
	m = drive(t, m, msgs(ctrlB, typed("a100-40gb"), enter, enter)...)
	m = drive(t, m, msgs(ctrlB, clearLine, typed("a100-80gb:8"), enter, enter)...) // a second pick
	if !slices.Equal(m.a.Providers, []string{"aws"}) {
		t.Fatalf("the second pick: providers %v, want [aws]", m.a.Providers)
	}
	where := m.wiz.chosen(m.a.Providers, nil, "none")
	if where != "chosen: aws (market pick)" {
		t.Errorf("the Where page's providers say %q; want what the pick chose", where)
	}
	cleared := drive(t, m, ctrlB, ctrl('x'))
	if !slices.Equal(cleared.a.Providers, []string{"aws", "lambda"}) || !slices.Equal(cleared.a.Regions, []string{"us-east-1"}) || len(cleared.a.GPUKeys) != 0 {
		t.Errorf("ctrl+x: providers %v, regions %v, GPUs %v; want the answers before the first pick", cleared.a.Providers, cleared.a.Regions, cleared.a.GPUKeys)
	}
	if s := screenText(cleared); !strings.Contains(s, "pick cleared: offers of every GPU on aws, lambda in us-east-1") {
		t.Errorf("ctrl+x: the footer does not say where the offers come from now:\n%s", s)
	}
	if where := cleared.wiz.chosen(cleared.a.Providers, nil, "none"); where != "chosen: aws, lambda" {
		t.Errorf("after ctrl+x the Where page says %q; want the providers, no pick", where)
	}

	// Regions chosen after the pick are the user's: they stay.
	m.a.Regions = []string{"us-west-2"}
	kept := drive(t, m, ctrlB, ctrl('x'))
	if !slices.Equal(kept.a.Regions, []string{"us-west-2"}) || !slices.Equal(kept.a.Providers, []string{"aws", "lambda"}) {
		t.Errorf("ctrl+x after regions were changed: regions %v, providers %v; want [us-west-2] kept, the providers back", kept.a.Regions, kept.a.Providers)
	}
}
