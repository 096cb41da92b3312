package tui

import (
	"fmt"
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

// Trial 15c B3: a list's height was fixed when its page was built, and
// huh's Group.WithHeight only ever shortens a field: after 120×40 →
// 60×21 → 120×40 the model list showed 7 rows against 11 on a fresh
// 120×40. A resize back gives the screen a fresh start at that size
// gives, on every page with a list of fixed height; so does a page
// rebuilt at a small size (the browser's enter, esc past an invalid
// answer) once the terminal is large again.
func TestResizeBackAsFresh(t *testing.T) {
	fresh := func(title string, w, h int) string {
		return screenText(toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(w, h)), title))
	}
	for _, title := range []string{"Model", "Where"} {
		for _, small := range [][2]int{{60, 21}, {80, 24}, {100, 22}} {
			t.Run(fmt.Sprintf("%s/%dx%d", title, small[0], small[1]), func(t *testing.T) {
				m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), title)
				m = drive(t, m, size(small[0], small[1]))
				if got, want := screenText(m), fresh(title, small[0], small[1]); got != want {
					t.Errorf("at %d×%d after 120×40:\n%s\nwant, as a fresh start:\n%s", small[0], small[1], got, want)
				}
				m = drive(t, m, size(120, 40))
				if got, want := screenText(m), fresh(title, 120, 40); got != want {
					t.Errorf("back at 120×40:\n%s\nwant, as a fresh start:\n%s", got, want)
				}
			})
		}
	}
	// Rebuilt at 60×21, as startFrom, backAnyway and toWizard rebuild the
	// form at the size of the moment, then 120×40.
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(60, 21))
	m.wiz = newWizard(m.a, m.cat, m.hf.check(), m.theme, m.wiz.width, m.wiz.height, m.lang)
	m = toPage(t, step(t, m, m.wiz.form.Init()).(app), "Model")
	m = drive(t, m, size(120, 40))
	if got, want := screenText(m), fresh("Model", 120, 40); got != want {
		t.Errorf("the form rebuilt at 60×21, at 120×40:\n%s\nwant, as a fresh start:\n%s", got, want)
	}
}
