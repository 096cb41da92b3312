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
