package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
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
	memo   *footerMemo // shared by copies: View has a value receiver
}

// footerMemo keeps the last drawing and what it was drawn from: the help
// is drawn twice a frame (layout asks its height) and changes only when
// the keys that apply or the status change, not with every keystroke.
type footerMemo struct {
	key string
	out string
}

func newFooter(st *report.Styles) footer {
	f := footer{st: st, help: help.New(), memo: &footerMemo{}}
	f.restyle()
	return f
}

// memoKey is everything view draws from, as text.
func (f footer) memoKey(k keyMap, full bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %t %t %t %q %d\x00", f.width, full, k.notice, f.isErr, f.status, len(k.form))
	add := func(bs ...key.Binding) {
		for _, x := range bs {
			h := x.Help()
			fmt.Fprintf(&b, "%t\x01%s\x01%s\x00", x.Enabled(), h.Key, h.Desc)
		}
	}
	for _, col := range k.FullHelp() {
		add(col...)
	}
	return b.String()
}

// restyle takes the key help's styles from f.st (again, after the
// background changed them).
func (f *footer) restyle() {
	if f.memo != nil {
		*f.memo = footerMemo{}
	}
	f.help.Styles.ShortKey, f.help.Styles.FullKey = f.st.Key, f.st.Key
	f.help.Styles.ShortDesc, f.help.Styles.FullDesc = f.st.Muted, f.st.Muted
}

func (f *footer) setSize(w int) {
	f.width = max(w, 0)
	f.help.SetWidth(f.width)
}

// say sets the status line. It often quotes a path or a name from a file
// ("exported to PATH"), so it goes through printable: a control character
// is shown escaped (\x1b, \n), never dropped by the renderer, and two
// different paths never read the same.
func (f *footer) say(s string, isErr bool) { f.status, f.isErr = printable(s), isErr }

// view renders the footer for keys k; full shows every key. The status
// line is left out when there is nothing to say; short help that does
// not fit one line takes two: the field's keys, then ours.
func (f footer) view(k keyMap, full bool) string {
	if f.memo == nil {
		return f.draw(k, full)
	}
	if key := f.memoKey(k, full); key != f.memo.key || f.memo.out == "" {
		f.memo.key, f.memo.out = key, f.draw(k, full)
	}
	return f.memo.out
}

func (f footer) draw(k keyMap, full bool) string {
	var lines []string
	if f.status != "" {
		status := f.st.Muted.Render(f.status)
		if f.isErr {
			// What to fix is read whole: an error wraps to up to
			// maxErrLines lines, where one line cut the command it names
			// at 80 columns ("open it with gpuplan --con…"; tui37).
			wrapped := strings.Split(wrapCommands(f.status, max(f.width, 1)), "\n")
			if len(wrapped) > maxErrLines {
				wrapped[maxErrLines-1] = strings.Join(wrapped[maxErrLines-1:], " ")
				wrapped = wrapped[:maxErrLines]
			}
			for _, l := range wrapped {
				lines = append(lines, report.Truncate(f.st.Bad.Render(l), f.width))
			}
		} else {
			lines = append(lines, report.Truncate(status, f.width))
		}
	}
	var h string
	switch {
	case full:
		f.help.ShowAll = true
		h = f.help.View(k)
	default:
		wide := f.help
		wide.SetWidth(0)
		// The form's keys lead ShortHelp only while a form has the focus;
		// an overlay (the catalog warnings box) has its own few keys, so
		// the split is taken only when ShortHelp is longer than the form's.
		short := k.ShortHelp()
		if one := wide.ShortHelpView(short); lipgloss.Width(one) <= f.width || len(k.form) == 0 || len(k.form) >= len(short) {
			h = f.help.ShortHelpView(short)
		} else {
			h = f.help.ShortHelpView(k.form) + "\n" + f.help.ShortHelpView(short[len(k.form):])
		}
	}
	for _, l := range strings.Split(h, "\n") {
		lines = append(lines, report.Truncate(l, f.width))
	}
	return strings.Join(lines, "\n")
}

// maxErrLines is how many lines an error in the status line takes at
// most; the last is cut when it needs more.
const maxErrLines = 3

// height is the footer's height in lines.
func (f footer) height(k keyMap, full bool) int {
	return strings.Count(f.view(k, full), "\n") + 1
}
