package tui

import (
	"strings"
	"testing"
)

// TestListSearchSpaced: a search kept on the providers list after enter
// reads "Providers /prime", not "Providers/prime" (huh writes it right
// after the title).
func TestListSearchSpaced(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Where")
	if s := screenText(m); !strings.Contains(s, "none chosen: every provider but marketplaces") || !strings.Contains(s, "none chosen: all regions") {
		t.Errorf("the Where page does not say what is chosen:\n%s", s)
	}
	m = drive(t, m, msgs(runes("/"), typed("lamb"), enter)...)
	s := screenText(m)
	if !strings.Contains(s, "Providers /lamb") {
		t.Errorf("the kept search does not read \"Providers /lamb\":\n%s", s)
	}
}

// TestOffersOneRowSingular: the offers heading counts one row as "1 row"
// (it said "1 rows, +1 in other regions").
func TestOffersOneRowSingular(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrl('b'))
	m = drive(t, m, msgs(typed("a100-40gb"), enter, enter, ctrlO)...) // lambda's A100 40GB: one price in two regions
	if s := screenText(m); !strings.Contains(s, "1 row, +1 in other regions (r)") {
		t.Errorf("the offers heading does not say \"1 row, +1 in other regions (r)\":\n%s", s)
	}
}
