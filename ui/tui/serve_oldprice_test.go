package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestServingPanelSaysOldPrice: the serving panel says, under its best
// offer, that the offer's price is months older than the catalog, as the
// training panel does (TestPanelSaysOldPrice) and recommend --task serve
// under "best:". Failing before: the serving panel gave a price of
// 2026-05-28 beside a catalog of 2026-11-30 as it gave the others.
func TestServingPanelSaysOldPrice(t *testing.T) {
	cat := testCatalog(t)
	for i := range cat.Instances {
		cat.Instances[i].AsOf = "2026-05-28" // cat.AsOf stays 2026-11-30
	}
	const want = "price as of 2026-05-28, 186 days older than the catalog: check it before renting"
	flat := func(s string) string {
		return strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╭", " ", "╰", " ").Replace(s)), " ")
	}
	panelText := func(m app) string {
		p := m.panel
		p.cache = nil
		p.setSize(120, 40)
		return ansi.Strip(p.view(false))
	}
	m := start(t, newTestApp(t, cat, Options{}), size(120, 40))
	a, like := m.a, servingApp(t, 120, 40).a // servingApp's answers on the old-priced catalog
	a.Task, a.Model, a.InferPrecision, a.Batch, a.Length, a.Serve = like.Task, like.Model, like.InferPrecision, like.Batch, like.Length, like.Serve
	m.recompute()
	if m.res == nil || len(m.res.serve) == 0 || !m.res.serve[0].Meets {
		t.Fatalf("no serving plan that meets the targets: %+v", m.res)
	}
	if text := panelText(m); !strings.Contains(flat(text), want) {
		t.Errorf("the serving panel does not say the best price is old; want %q in:\n%s", want, text)
	}
	if text := panelText(servingApp(t, 120, 40)); strings.Contains(text, "older than the catalog") {
		t.Errorf("the fixture's prices are called old:\n%s", text)
	}
}
