package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpuplan/gpuplan/model"
)

// When the budget, deadline or price limit removes every offer the panel
// says how many each removed, as gpuplan recommend does; messages are
// wrapped, not cut before their cause.
func TestPanelSaysWhatRemovedOffers(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Price")
	m = drive(t, m, enter)
	m = drive(t, m, typed("1")...) // a $1 monthly budget
	text := strings.Join(strings.Fields(screenText(m)), " ")
	if !strings.Contains(text, "offers of") || !strings.Contains(text, "did not pass:") || !strings.Contains(text, "monthly budget") {
		t.Errorf("the panel does not say the budget removed the offers:\n%s", screenText(m))
	}
	for _, w := range []int{60, 80, 120} {
		m := start(t, newTestApp(t, testCatalog(t), Options{}), size(w, 30))
		m.a.Pricing, m.a.Providers = "reserved-1y", []string{"vast"} // a marketplace: no reserved prices
		m = drive(t, m, runes("?"), runes("?"))                      // recompute
		m.recompute()
		text := strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╭", " ", "╰", " ").Replace(screenText(m))), " ")
		if !strings.Contains(text, "reserved-1y") {
			t.Errorf("width %d: the cause (pricing reserved-1y) is cut:\n%s", w, screenText(m))
		}
		checkFits(t, m.View().Content, w, 30)
	}
}

// Fit advice keeps its numbers when the labels are cut. The advice is
// what the panel shows when recommend's hints price nothing; for 70B
// they now find 8 A100 80GB (sharding with the savers together), so the
// advice is rendered without them, at the panel's width on a 100-column
// screen.
func TestFitAdviceKeepsNumbers(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(100, 40), tab, up, up, enter, runes("/"))
	m = drive(t, m, append(typed("llama 3.1 70b"), enter)...)
	if m.res == nil || len(m.res.advice) == 0 {
		t.Fatalf("no fit advice:\n%s", screenText(m))
	}
	c := *m.res
	c.hints = nil
	n, flags := 0, false
	for _, l := range adviceBlocks(m.panel.noFitLines(&c, max(m.panel.width-m.panel.st.Panel.GetHorizontalFrameSize(), 0))) {
		if strings.HasPrefix(l, "✓") || strings.HasPrefix(l, "~") || strings.HasPrefix(l, "✗ ") && strings.Contains(l, "→") {
			n++
			if !regexp.MustCompile(`→ [0-9.]+ GiB$`).MatchString(l) {
				t.Errorf("advice line lost its number: %q", l)
			}
			// A line that fits is what the user acts on: whole, with its
			// flags (a walk: every line was cut before them).
			if !strings.HasPrefix(l, "✗") {
				flags = true
				if !regexp.MustCompile(`\(--strategy [a-z0-9]+ --gpus [0-9]+[^)…]*\) → `).MatchString(l) {
					t.Errorf("a fitting advice line is cut before its flags: %q", l)
				}
			}
		}
	}
	if n == 0 || !flags {
		t.Fatalf("no fit advice (or none that fits):\n%s", screenText(m))
	}
}

// adviceBlocks joins the panel's no-fit lines, ANSI stripped, so that a
// wrapped advice line (its continuation indented) reads as one.
func adviceBlocks(lines []string) []string {
	var out []string
	for _, l := range lines {
		l = strings.TrimRight(ansi.Strip(l), " ")
		if len(out) > 0 && strings.HasPrefix(l, "  ") && !strings.HasPrefix(strings.TrimSpace(l), "aws") && (strings.HasPrefix(out[len(out)-1], "✓") || strings.HasPrefix(out[len(out)-1], "~")) {
			out[len(out)-1] += " " + strings.TrimSpace(l)
			continue
		}
		out = append(out, l)
	}
	return out
}

// Offers equal on headroom rank the cheaper first.
func TestHeadroomTiesByPrice(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlO)
	for m.offers.sort != model.SortHeadroom {
		m = drive(t, m, runes("s"))
	}
	offers := m.res.rec.Offers
	for i := 1; i < len(offers); i++ {
		a, b := offers[i-1], offers[i]
		if a.HeadroomPct == b.HeadroomPct && a.USDPerHour > b.USDPerHour {
			t.Errorf("equal headroom %.1f%%: %s $%.2f ranks before %s $%.2f", a.HeadroomPct, a.Instance.Type, a.USDPerHour, b.Instance.Type, b.USDPerHour)
		}
	}
}
