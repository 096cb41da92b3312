package tui

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
)

// notice is the box over the first screen that shows the catalog's load
// warnings (Options.Warnings: a provider named by an overlay's folder,
// prices below the median, …); any key closes it. Without it they were
// printed before the alternate screen opened and seen only after quitting.
type notice struct {
	lines []string // the warnings, printable
}

func newNotice(warnings []string) *notice {
	if len(warnings) == 0 {
		return nil
	}
	n := &notice{lines: make([]string, len(warnings))}
	for i, w := range warnings {
		n.lines[i] = printable(w)
	}
	return n
}

// view draws the box at most w cells wide and h lines high: each warning
// wrapped, and a last line saying how to go on. Warnings that do not fit
// are counted, not cut silently; they are on the terminal after quitting.
func (n *notice) view(st *report.Styles, lang *i18n.Printer, w, h int) string {
	inner := max(w-6, 10) // the double border and padding of st.Dialog
	title := st.Heading.Render(lang.T("Catalog warnings"))
	foot := st.Muted.Render(lipgloss.NewStyle().Width(inner).Render(
		lang.T("any key continues; the warnings stay on the terminal after you quit")))
	room := max(h-4-lipgloss.Height(title)-lipgloss.Height(foot)-2, 1) // border, padding, blank lines
	var body []string
	shown := 0
	for _, l := range n.lines {
		wrapped := wrapLines(l, inner-2) // a file name or flag whole (wrapLines)
		if len(body)+len(wrapped) > room && shown > 0 {
			break
		}
		for i, x := range wrapped {
			lead := "  "
			if i == 0 {
				lead = st.Warn.Render("! ")
			}
			body = append(body, lead+x)
		}
		shown++
	}
	if len(body) > room { // one warning taller than the screen
		body = body[:room]
	}
	if rest := len(n.lines) - shown; rest > 0 {
		body = append(body, st.Muted.Render(lang.Sprintf("… and %d more", rest)))
	}
	return st.Dialog.Render(title + "\n" + strings.Join(body, "\n") + "\n\n" + foot)
}
