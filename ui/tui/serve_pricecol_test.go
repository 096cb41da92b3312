package tui

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// TestServingPanelPriceColumnIsTheOrder: with a load given the serving
// offers are ranked by $ per hour that carries it, and the panel's price
// column is that figure, in order; with none, $ per million output tokens
// (a new user's walk: "by $ per hour" above a $/Mtok column that read
// unsorted: $8.74, $10.53, $10.41).
func TestServingPanelPriceColumnIsTheOrder(t *testing.T) {
	m := embeddedServing(t, 120, 40)
	if text := screenText(m); !strings.Contains(text, "$/Mtok") || strings.Contains(text, " $/h") {
		t.Fatalf("no load: want the $/Mtok column:\n%s", text)
	}
	m.a.Serve.RPS = "1"
	m.recompute()
	m = drive(t, m, size(120, 40))
	text := screenText(m)
	if !strings.Contains(text, "by $ per hour") || !strings.Contains(text, "$/h") {
		t.Fatalf("a load given: want the $/h column under the $/h order:\n%s", text)
	}
	last, rows := 0.0, 0
	for i := range m.res.serve {
		p := &m.res.serve[i]
		if !p.Meets || !strings.Contains(text, report.USD(p.USDPerHour)) {
			break
		}
		if p.USDPerHour < last {
			t.Errorf("row %d at $%.2f/h after $%.2f/h", i, p.USDPerHour, last)
		}
		last = p.USDPerHour
		rows++
	}
	if rows == 0 {
		t.Errorf("no row shows its $/h:\n%s", text)
	}
}
