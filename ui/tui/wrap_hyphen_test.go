package tui

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestPanelWrapKeepsFlagsWhole: the panel's wrapped lines never break
// after a hyphen, so a flag (--optimizer) or a hyphenated name
// (adamw-8bit, us-east-1) stays on one line; the fit hint for 70B's full
// fine-tune names --strategy zero3 --gpus 8 --optimizer adamw-8bit, and
// at some widths showed "--" at a line's end and "optimizer" on the next
// (the zh-CN leak test then took the flag names as words).
func TestPanelWrapKeepsFlagsWhole(t *testing.T) {
	broke := 0
	for i := range 2 * 23 { // 88 to 110 columns: the hint broke at 97, 100 and 104 (90 to 92 in Chinese)
		w, opts := 88+i/2, Options{}
		if i%2 == 1 {
			opts = zhOptions() // the Chinese hint names the same flags
		}
		m := start(t, newTestApp(t, testCatalog(t), opts), size(w, 40), tab, up, up, enter, runes("/"))
		m = drive(t, m, append(typed("llama 3.1 70b"), enter)...)
		lines := strings.Split(ansi.Strip(m.View().Content), "\n")
		for i, l := range lines {
			// The panel's column: the text after its left border.
			_, cell, ok := strings.Cut(l, "│")
			if !ok {
				continue
			}
			cell = strings.TrimRight(strings.TrimSuffix(strings.TrimRight(cell, " "), "│"), " ")
			if strings.HasSuffix(cell, "-") {
				broke++
				t.Errorf("width %d: line %d breaks after a hyphen: %q\n%s", w, i, cell, strings.Join(lines, "\n"))
			}
		}
		if broke > 2 {
			t.FailNow()
		}
	}
}

// TestNoBreakHyphenWidth: the no-break hyphen wrapLines wraps with is one
// cell, as "-" is, for the width functions the panel measures with, so
// the lines keep their widths.
func TestNoBreakHyphenWidth(t *testing.T) {
	if a, b := ansi.StringWidth(noBreakHyphen), lipgloss.Width(noBreakHyphen); a != 1 || b != 1 {
		t.Errorf("U+2011 is %d cells (ansi.StringWidth), %d (lipgloss.Width); want 1", a, b)
	}
	s := "run with --optimizer adamw-8bit in us-east-1 --gpus 8"
	for _, w := range []int{5, 12, 30} {
		got := wrapLines(s, w)
		if strings.Contains(strings.Join(got, ""), noBreakHyphen) {
			t.Errorf("width %d: a no-break hyphen left in %q", w, got)
		}
		for i, l := range got {
			if lipgloss.Width(l) != w { // padded to the width, or a word longer than it cut at it
				t.Errorf("width %d: line %d %q is %d cells", w, i, l, lipgloss.Width(l))
			}
		}
	}
	if got := strings.Join(wrapLines(s, 12), "|"); !strings.Contains(got, "--optimizer") || !strings.Contains(got, "adamw-8bit") || !strings.Contains(got, "us-east-1") {
		t.Errorf("at 12 cells a flag or name is split: %q", got)
	}
}

// TestOtherWrapsKeepFlagsWhole: the offer detail's warnings
// (wrapKeepingUnits), the catalog warnings dialog (notice) and the
// offers view's problem line wrap as the panel does: no line ends at a
// flag's or a file name's hyphen.
func TestOtherWrapsKeepFlagsWhole(t *testing.T) {
	const s = "  ! overlay ~/.config/gpuplan/catalog.d/my-prices.toml: 3 rows held as fake or mistyped; pass --trust-overlay to rank them, or --allow-precision-fallback in us-east-1"
	endsAtHyphen := func(block string) string {
		for _, l := range strings.Split(ansi.Strip(block), "\n") {
			if l = strings.TrimRight(l, " │║"); strings.HasSuffix(l, "-") {
				return l
			}
		}
		return ""
	}
	n := newNotice([]string{s})
	for w := 50; w <= 100; w++ { // past the longest word (the path), which only a hard cut can split
		if l := endsAtHyphen(wrapKeepingUnits(s, w)); l != "" {
			t.Errorf("wrapKeepingUnits at %d: %q", w, l)
		}
		if l := endsAtHyphen(n.view(testStyles(), nil, w+6, 40)); l != "" {
			t.Errorf("notice at %d: %q", w, l)
		}
	}
}
