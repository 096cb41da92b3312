package tui

import (
	"strings"
	"testing"
)

// TestPanelSaysOldPrice (staleprice): when the best offer's price is
// more than 90 days older than the catalog, the panel says so under its
// offers, as recommend does under "best:", and so do the offer's detail
// (ctrl+o, enter) and, at 80×24, the compact panel's count line. Failing before: the panel gave a price of
// 2026-05-28 beside a catalog of 2026-11-30 as it gave the others.
func TestPanelSaysOldPrice(t *testing.T) {
	cat := testCatalog(t)
	for i := range cat.Instances {
		cat.Instances[i].AsOf = "2026-05-28" // cat.AsOf stays 2026-11-30
	}
	// The header gives the catalog's date (2026-11-30).
	const want = "price as of 2026-05-28, 186 days older than the catalog: check it before renting"
	flat := func(s string) string {
		return strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╭", " ", "╰", " ").Replace(s)), " ")
	}
	m := start(t, newTestApp(t, cat, Options{}), size(120, 40))
	if !strings.Contains(flat(screenText(m)), want) {
		t.Errorf("the panel does not say the best price is old; want %q in:\n%s", want, screenText(m))
	}
	best := m.res.rec.Offers[0]
	if d := offerDetail(m.lang, m.st, &best, m.res, cat.AsOf, 100); !strings.Contains(flat(d), want) {
		t.Errorf("the offer's detail does not say its price is old; want %q in:\n%s", want, d)
	}
	// At 80×24 the compact panel has no room for the line: its count
	// line under the best offer says it, as it says a borderline one.
	small := start(t, newTestApp(t, cat, Options{}), size(80, 24))
	const mark = "! best price 186 days older than the catalog"
	if !strings.Contains(screenText(small), mark) {
		t.Errorf("the compact panel does not say the best price is old; want %q in:\n%s", mark, screenText(small))
	}
	checkFits(t, small.View().Content, 80, 24)

	fresh := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	if s := screenText(fresh); strings.Contains(s, "older than the catalog") {
		t.Errorf("the fixture's prices (2026-11-30, 2026-12-01) are called old:\n%s", s)
	}
}
