package tui

import (
	"strings"
	"testing"
)

// Trap (issue 17): after one pass through "terminal too small" the
// lists stayed clipped to a row or two. The model list shows as many
// models at 120×40 after a tiny terminal as before it.
func TestListHeightAfterTooSmall(t *testing.T) {
	rows := func(m app) int {
		n := 0
		for _, line := range strings.Split(screenText(m), "\n") {
			if strings.Contains(line, " · ") && (strings.Contains(line, "LLM ") || strings.Contains(line, "encoder ") || strings.Contains(line, "CNN ")) {
				n++
			}
		}
		return n
	}
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Model")
	before := rows(m)
	if before < 8 {
		t.Fatalf("only %d models in view at 120×40 before the resize:\n%s", before, screenText(m))
	}
	for _, s := range []struct{ w, h int }{{40, 8}, {120, 12}, {60, 40}, {120, 40}} {
		m = drive(t, m, size(s.w, s.h))
	}
	if after := rows(m); after != before {
		t.Errorf("%d models in view at 120×40 after a tiny terminal, %d before:\n%s", after, before, screenText(m))
	}
}
