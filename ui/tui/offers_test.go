package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/report"
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
	for _, want := range []string{`batch size: want a whole number from 1 to 1048576, got "x"`, "question page 4 of 13: Batch and length", "esc goes back"} {
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

// Trial L6: at 80 columns the offers table dropped the headroom column
// and with it the "~" of borderline offers. The mark moves to the GPUs
// cell then, on the offers screen and in the panel's table.
func TestBorderlineMarkAtEveryWidth(t *testing.T) {
	for _, w := range []int{200, 120, 80, 60} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(w, 24)) // the README's default: fluidstack's L40 is borderline
			if m.res == nil || !slices.ContainsFunc(m.res.rec.Offers, func(o model.Offer) bool { return o.Verdict == model.VerdictBorderline }) {
				t.Skip("no borderline offer in the catalog for the default answers")
			}
			m = drive(t, m, ctrlO)
			for i, r := range m.offers.table.Rows() {
				if o := &m.offers.all[m.offers.shown[i]]; o.Verdict == model.VerdictBorderline && !strings.Contains(strings.Join(r, " "), "~") {
					t.Errorf("%s %s is borderline, its row has no ~: %q", o.Instance.Provider, o.Instance.Type, r)
				}
			}
			table := offersTable(nil, m.res.rec.Offers, w/2, testStyles())
			for _, o := range m.res.rec.Offers {
				if o.Verdict != model.VerdictBorderline {
					continue
				}
				if slices.ContainsFunc(m.res.rec.Offers, func(x model.Offer) bool {
					return x.Verdict != model.VerdictBorderline && x.Instance.Provider == o.Instance.Provider && report.USD(x.USDPerHour) == report.USD(o.USDPerHour)
				}) {
					continue // another row reads the same provider and price: the line cannot be told apart
				}
				for _, l := range strings.Split(table, "\n") {
					if strings.HasPrefix(strings.TrimSpace(l), o.Instance.Provider+" ") && strings.Contains(l, report.USD(o.USDPerHour)) && !strings.Contains(l, "~") {
						t.Errorf("panel table at %d cells: borderline %s has no ~: %q", w/2, o.Instance.Type, l)
					}
				}
			}
		})
	}
}

// Trial L9 saw the cursor's row off screen after s. The sort's recompute
// runs in a command here, as in the program (TestSelectionStaysVisible
// computes in Update), at the trial's 80×24.
func TestSelectionStaysVisibleAsync(t *testing.T) {
	for _, downs := range []int{5, 15, 30, 39} {
		m := start(t, newTestApp(t, manyOffersCatalog(t), Options{}), size(80, 24), ctrlO)
		m.async = true
		for range downs {
			m = drive(t, m, down)
		}
		for range 5 {
			m = drive(t, m, runes("s")) // drive runs the recompute command and feeds its result back
			o := m.offers.selected()
			if o == nil {
				t.Fatalf("after %d downs and s: nothing selected", downs)
			}
			var marked string
			for _, l := range strings.Split(screenText(m), "\n") {
				if strings.Contains(l, "›") {
					marked = l
				}
			}
			if !strings.Contains(marked, o.Instance.Provider) || !strings.Contains(marked, report.USD(o.USDPerHour)) { // the type may be cut at 80 columns
				t.Errorf("after %d downs and s (sort %s): selected %s, marked row %q\n%s", downs, m.offers.sort, o.Instance.Type, marked, screenText(m))
			}
		}
	}
}
