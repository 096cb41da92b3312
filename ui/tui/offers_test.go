package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuplan/gpuplan/model"
)

// manyOffersCatalog has enough offers that the table scrolls.
func manyOffersCatalog(tb testing.TB) *model.Catalog {
	c := testCatalog(tb)
	for i := range 40 {
		c.Instances = append(c.Instances, model.Instance{Provider: "gen", Type: fmt.Sprintf("gen-%02d", i), GPU: []string{"l4", "a100-80gb", "h100-sxm"}[i%3],
			GPUCount: 1, VCPUs: 8, MemoryGiB: 64, Prices: []model.RegionPrice{{Region: fmt.Sprintf("r%02d", i), OnDemandUSD: 1 + float64((i*7)%40)/10}},
			Source: "fixture", AsOf: "2026-11-30"})
	}
	c.Index()
	return c
}

// Trap: after a sort or a filter the cursor stayed on its offer but the
// table did not scroll to it: no › on screen, and ctrl+e exported an
// offer the user could not see.
func TestSelectionStaysVisible(t *testing.T) {
	for _, downs := range []int{0, 3, 9, 20, 30} {
		m := start(t, newTestApp(t, manyOffersCatalog(t), Options{}), size(120, 24), ctrlO)
		for range downs {
			m = drive(t, m, down)
		}
		for _, k := range []tea.Msg{runes("s"), runes("s"), runes("s"), runes("s"), runes("p"), runes("p")} {
			m = drive(t, m, k)
			o := m.offers.selected()
			if o == nil {
				t.Fatalf("after %d downs and %s: nothing selected", downs, k)
			}
			var marked string
			for _, l := range strings.Split(screenText(m), "\n") {
				if strings.Contains(l, "›") {
					marked = l
				}
			}
			if !strings.Contains(marked, o.Instance.Type) {
				t.Errorf("after %d downs and %s (sort %s): selected %s, marked row %q", downs, k, m.offers.sort, o.Instance.Type, marked)
			}
		}
	}
}

// Trap: ctrl+o with an answer that does not parse showed "sorted by  (s)"
// and keys that did nothing. The offers screen names the answer, its
// page and how to get there, and offers no sort, filter or details.
func TestOffersWithInvalidAnswer(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Batch and length")
	m = drive(t, m, append(replace("x"), ctrlO)...)
	text := screenText(m)
	for _, want := range []string{`batch size: want a whole number from 1 to 1048576, got "x"`, "question page 4 of 12: Batch and length", "esc goes back"} {
		if !strings.Contains(text, want) {
			t.Errorf("offers screen lacks %q:\n%s", want, text)
		}
	}
	for _, bad := range []string{"sorted by  ", "s sort", "p provider", "enter details"} {
		if strings.Contains(text, bad) {
			t.Errorf("offers screen shows %q:\n%s", bad, text)
		}
	}
	m = drive(t, m, msgs(esc, replace("8"))...)
	if m.screen != screenWizard || m.a.Batch != "8" {
		t.Errorf("esc and typing did not fix the answer: screen %v, batch %q", m.screen, m.a.Batch)
	}
}
