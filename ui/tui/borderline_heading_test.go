package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/gpuplan/gpuplan/model"
)

// TestBorderlineDetailHeading: the detail page of a borderline offer
// does not head its memory figures "Why it fits" (为什么放得下 next to
// 余量 1%, as a new user saw); it says it may not fit and the chance.
// An offer that fits keeps "Why it fits".
func TestBorderlineDetailHeading(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	if m.res == nil || len(m.res.rec.Offers) == 0 {
		t.Fatal("no offers on the first screen")
	}
	o := m.res.rec.Offers[0]
	o.Verdict = model.VerdictFits
	if d := ansi.Strip(offerDetail(nil, testStyles(), &o, m.res, "2026-11-30", 120)); !strings.Contains(d, "Why it fits") {
		t.Errorf("a fitting offer's detail lacks 'Why it fits':\n%s", d)
	}
	o.Verdict, o.OOMChance = model.VerdictBorderline, 0.4
	d := ansi.Strip(offerDetail(nil, testStyles(), &o, m.res, "2026-11-30", 120))
	if strings.Contains(d, "Why it fits") || !strings.Contains(d, "Why it may not fit (about 40% chance of running out of memory)") {
		t.Errorf("a borderline offer's detail heading:\n%s", d)
	}
}
