package tui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"github.com/gpuplan/gpuplan/ui/report"
)

// footer is the bottom of the screen: a status line (what just happened,
// or the error to fix) over the key help, short or full (?).
type footer struct {
	st     *report.Styles
	help   help.Model
	status string
	isErr  bool
	width  int
}

func newFooter(st *report.Styles) footer {
	f := footer{st: st, help: help.New()}
	f.restyle()
	return f
}

// restyle takes the key help's styles from f.st (again, after the
// background changed them).
func (f *footer) restyle() {
	f.help.Styles.ShortKey, f.help.Styles.FullKey = f.st.Key, f.st.Key
	f.help.Styles.ShortDesc, f.help.Styles.FullDesc = f.st.Muted, f.st.Muted
}

func (f *footer) setSize(w int) {
	f.width = max(w, 0)
	f.help.SetWidth(f.width)
}

func (f *footer) say(s string, isErr bool) { f.status, f.isErr = s, isErr }

// view renders the footer for keys k; full shows every key. The status
// line is left out when there is nothing to say; short help that does
// not fit one line takes two: the field's keys, then ours.
func (f footer) view(k keyMap, full bool) string {
	var lines []string
	if f.status != "" {
		status := f.st.Muted.Render(f.status)
		if f.isErr {
			status = f.st.Bad.Render(f.status)
		}
		lines = append(lines, report.Truncate(status, f.width))
	}
	var h string
	switch {
	case full:
		f.help.ShowAll = true
		h = f.help.View(k)
	default:
		wide := f.help
		wide.SetWidth(0)
		if one := wide.ShortHelpView(k.ShortHelp()); lipgloss.Width(one) <= f.width || len(k.form) == 0 {
			h = f.help.ShortHelpView(k.ShortHelp())
		} else {
			h = f.help.ShortHelpView(k.form) + "\n" + f.help.ShortHelpView(k.ShortHelp()[len(k.form):])
		}
	}
	for _, l := range strings.Split(h, "\n") {
		lines = append(lines, report.Truncate(l, f.width))
	}
	return strings.Join(lines, "\n")
}

// height is the footer's height in lines.
func (f footer) height(k keyMap, full bool) int {
	return strings.Count(f.view(k, full), "\n") + 1
}
