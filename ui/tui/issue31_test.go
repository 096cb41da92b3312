package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/ui/report"
)

// Issue 31 item 8: after 120×40 → 60×20 → 120×40 the first page's lists
// (Framework, Task) stayed clipped: huh's Group.WithHeight only ever
// shortens a field, and only the fixed-height lists got theirs back; Task
// lost "inference (serving)". The page reads as a fresh start at 120×40.
func TestResizeBackWorkloadPage(t *testing.T) {
	fresh := screenText(start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)))
	for _, small := range [][2]int{{60, 20}, {80, 24}, {80, 12}} {
		t.Run(fmt.Sprintf("%dx%d", small[0], small[1]), func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), size(small[0], small[1]), size(120, 40))
			got := screenText(m)
			if !strings.Contains(got, "inference (serving)") || !strings.Contains(got, "JAX / Flax") {
				t.Errorf("a list lost options after the resize:\n%s", got)
			}
			if got != fresh {
				t.Errorf("back at 120×40:\n%s\nwant, as a fresh start:\n%s", got, fresh)
			}
		})
	}
}

// Issue 31 item 8: at 80×24 the compact panel's best offer was one
// sentence, names first, so the job cost fell off the right edge ("· j…").
func TestCompactPanelShowsJobCost(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(80, 24))
	b := m.res.best()
	if b == nil || !b.HasJob {
		t.Fatalf("no best offer with a job: %+v", m.res)
	}
	text := screenText(m)
	checkFits(t, m.View().Content, 80, 24)
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "best ") {
			if !strings.Contains(l, report.USD(b.JobUSD)) || !strings.Contains(l, report.USD(b.USDPerHour)) {
				t.Errorf("the best offer's line lacks its job cost %s or price %s:\n%s", report.USD(b.JobUSD), report.USD(b.USDPerHour), text)
			}
			return
		}
	}
	t.Errorf("no best offer line at 80×24:\n%s", text)
}
