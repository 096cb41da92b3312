package tui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func repeat(k tea.Msg, n int) []tea.Msg {
	out := make([]tea.Msg, n)
	for i := range out {
		out[i] = k
	}
	return out
}

// TestRegionKeptAfterOffers: a region ticked on "Where", then a visit to
// the offers list from the Price page and back, keeps the region (walk
// 49e: esc esc dropped "Europe" and the panel went back to every offer:
// the form rebuilt after the offers focused the regions field before its
// options came, and huh's focus wrote the empty selection back).
func TestRegionKeptAfterOffers(t *testing.T) {
	for _, back := range []tea.Msg{esc, shiftTab} {
		m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40))
		m = drive(t, m, repeat(tab, 19)...)
		if !strings.Contains(screenText(m), "Regions") {
			t.Fatalf("not on Where:\n%s", screenText(m))
		}
		m = drive(t, m, tab, down, down, runes("x"))
		if !slices.Equal(m.a.Regions, []string{"europe"}) {
			t.Fatalf("regions %q after x, want europe\n%s", m.a.Regions, screenText(m))
		}
		before := m.a.Regions
		m = drive(t, m, msgs(enter, repeat(tab, 4), enter)...)
		if !strings.Contains(screenText(m), "All offers") {
			t.Fatalf("not on the offers:\n%s", screenText(m))
		}
		m = drive(t, m, esc, back)
		if !slices.Equal(m.a.Regions, before) {
			t.Errorf("back with %v: regions %q, want %q\n%s", back, m.a.Regions, before, screenText(m))
		}
		if s := screenText(m); !strings.Contains(s, "✓ Europe") {
			t.Errorf("back with %v: Europe not ticked:\n%s", back, s)
		}
	}
}

// TestMultiSelectsKeptAfterOffers: every list answer on the last pages
// (providers, regions, pricing) survives the offers list and the way back.
func TestMultiSelectsKeptAfterOffers(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40))
	m = drive(t, m, repeat(tab, 19)...)
	m = drive(t, m, down, runes("x"), tab, down, runes("x"), enter, right)
	want := *m.a
	if len(want.Providers) == 0 || len(want.Regions) == 0 || want.Pricing == "" {
		t.Fatalf("setup: providers %q regions %q pricing %q", want.Providers, want.Regions, want.Pricing)
	}
	m = drive(t, m, msgs(repeat(tab, 4), enter, esc, esc, esc, tab, tab)...)
	if !slices.Equal(m.a.Providers, want.Providers) || !slices.Equal(m.a.Regions, want.Regions) || m.a.Pricing != want.Pricing {
		t.Errorf("after the offers and back: providers %q regions %q pricing %q, want %q %q %q",
			m.a.Providers, m.a.Regions, m.a.Pricing, want.Providers, want.Regions, want.Pricing)
	}
}
