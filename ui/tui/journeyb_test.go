package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// "exported to …" said on the offer's detail page is not news on the
// offers list after esc: a status belongs to the screen it was said on.
func TestExportStatusLeavesWithItsScreen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.toml")
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlO, enter)
	if m.screen != screenDetail {
		t.Fatalf("enter on the offers did not open the detail")
	}
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
	if !strings.Contains(screenText(m), "exported to "+path) {
		t.Fatalf("the detail page does not say the export:\n%s", screenText(m))
	}
	m = drive(t, m, esc)
	if m.screen != screenOffers {
		t.Fatalf("esc on the detail did not go back to the offers")
	}
	if strings.Contains(screenText(m), "exported to") {
		t.Errorf("the offers screen still says the detail's export:\n%s", screenText(m))
	}
}

// s sorting by headroom shows the most headroom first, from the top:
// the cursor kept the offer selected under the old key (the cheapest,
// with the least headroom), so the list opened scrolled to its end and
// read smallest first.
func TestSortOpensOnTheBest(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40), ctrlO)
	for range len(sortCycle) {
		if m.offers.sort == model.SortHeadroom {
			break
		}
		m = drive(t, m, runes("s"))
	}
	if m.offers.sort != model.SortHeadroom {
		t.Fatalf("s never sorted by headroom")
	}
	if m.offers.table.Cursor() != 0 {
		t.Errorf("after sorting the cursor is on row %d, want the first (most headroom)", m.offers.table.Cursor())
	}
	first := m.offers.all[m.offers.shown[0]].HeadroomPct
	for _, i := range m.offers.shown {
		if h := m.offers.all[i].HeadroomPct; h > first+1e-9 {
			t.Fatalf("headroom %.1f%% listed after the first row's %.1f%%", h, first)
		}
	}
	if sel := m.offers.selected(); sel == nil || sel.HeadroomPct != first {
		t.Errorf("selected offer %v, want the first row (headroom %.1f%%)", sel, first)
	}
}

// The compact panel labels the offer under "best" (中文 其次): with no
// label it read as a second best.
func TestCompactPanelLabelsSecondOffer(t *testing.T) {
	for _, c := range []struct {
		opts       Options
		best, then string
	}{{Options{}, "best", "then"}, {zhOptions(), "最佳", "其次"}} {
		m := start(t, newTestApp(t, testCatalog(t), c.opts), size(80, 30))
		var bestLine int = -1
		lines := strings.Split(screenText(m), "\n")
		for i, l := range lines {
			if strings.Contains(l, c.best+" ") && bestLine < 0 {
				bestLine = i
			}
		}
		if bestLine < 0 || bestLine+1 >= len(lines) {
			t.Fatalf("%v: no %q line:\n%s", c.opts.Lang, c.best, screenText(m))
		}
		if !strings.Contains(lines[bestLine+1], c.then+" ") {
			t.Errorf("%v: the line under %q is not labelled %q:\n%s\n%s", c.opts.Lang, c.best, c.then, lines[bestLine], lines[bestLine+1])
		}
	}
}
