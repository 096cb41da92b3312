package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// widthMemo remembers the width of the lines drawn in the last frames. A
// keystroke changes a line or two of the screen; measuring every line
// again (grapheme by grapheme) was a third of a keystroke's time. Shared
// by pointer across the app's copies; the memo is emptied when it grows
// past a few screens, so it stays small.
type widthMemo struct {
	widths map[string]int
}

const memoLines = 1024 // a 200×60 screen is 60 lines; a few screens' worth

func newWidthMemo() *widthMemo { return &widthMemo{widths: make(map[string]int, 128)} }

// width is ansi.StringWidth(line), remembered.
func (w *widthMemo) width(line string) int {
	if n, ok := w.widths[line]; ok {
		return n
	}
	n := ansi.StringWidth(line)
	if len(w.widths) >= memoLines {
		clear(w.widths)
	}
	w.widths[line] = n
	return n
}

// block is lines of text with their widths, built once per frame.
type block struct {
	lines  []string
	widths []int
}

// measure splits s into lines and measures them.
func (w *widthMemo) measure(s string) block {
	lines := strings.Split(s, "\n")
	b := block{lines: lines, widths: make([]int, len(lines))}
	for i, l := range lines {
		b.widths[i] = w.width(l)
	}
	return b
}

func (b block) maxWidth() int {
	n := 0
	for _, w := range b.widths {
		n = max(n, w)
	}
	return n
}

// add appends a line of known width.
func (b *block) add(line string, width int) {
	b.lines = append(b.lines, line)
	b.widths = append(b.widths, width)
}

// pad gives every line width cells (lines are never wider: callers check)
// and the block h lines, cut or padded with blank ones: what
// lipgloss.NewStyle().Width(width).Height(h).MaxHeight(h).Render does to
// a block whose lines fit, without measuring them again.
func (b block) pad(width, h int) block {
	out := block{lines: make([]string, h), widths: make([]int, h)}
	for i := range h {
		if i < len(b.lines) {
			out.lines[i] = b.lines[i] + spaces(width-b.widths[i])
		} else {
			out.lines[i] = spaces(width)
		}
		out.widths[i] = width
	}
	return out
}

// spaces is n blanks (none for n ≤ 0).
func spaces(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(" ", n)
}

// wizardFrame draws the question screen from its parts as Lip Gloss
// would join them (the form padded to its box, the panel beside or under
// it, header, body and footer padded to the widest line, then cut to the
// terminal), reusing the widths it knows. ok is false when a form line is
// wider than its box: Lip Gloss wraps those, and render does it its way.
func (m app) wizardFrame(header, footer string, bodyH int) (frame string, ok bool) {
	memo := m.widths
	form := memo.measure(m.wiz.form.View())
	var body block
	if m.wide() {
		if form.maxWidth() > m.wiz.width {
			return "", false
		}
		form = form.pad(m.wiz.width, bodyH)
		panel := memo.measure(m.panel.view(false))
		pw := panel.maxWidth()
		for i := range bodyH {
			p, w := spaces(pw), pw
			if i < len(panel.lines) {
				p, w = panel.lines[i]+spaces(pw-panel.widths[i]), pw
			}
			body.add(form.lines[i]+" "+p, m.wiz.width+1+w)
		}
	} else {
		formH := max(bodyH-m.panel.height, 1)
		if form.maxWidth() > m.width {
			return "", false
		}
		form = form.pad(m.width, formH)
		panel := memo.measure(m.panel.view(true))
		body.lines = append(form.lines, panel.lines...)
		body.widths = append(form.widths, panel.widths...)
		if len(body.lines) > bodyH {
			body.lines, body.widths = body.lines[:bodyH], body.widths[:bodyH]
		}
		for len(body.lines) < bodyH {
			body.add("", 0)
		}
	}
	var all block
	all.add(header, memo.width(header))
	all.lines = append(all.lines, body.lines...)
	all.widths = append(all.widths, body.widths...)
	f := memo.measure(footer)
	all.lines = append(all.lines, f.lines...)
	all.widths = append(all.widths, f.widths...)
	// JoinVertical pads every line to the widest; clip then cuts to the
	// terminal's height and width.
	widest := all.maxWidth()
	n := min(len(all.lines), max(m.height, 1))
	var sb strings.Builder
	for i := range n {
		if i > 0 {
			sb.WriteByte('\n')
		}
		l, w := all.lines[i], all.widths[i]
		if widest > m.width && w > m.width {
			sb.WriteString(ansi.Truncate(l, m.width, ""))
			continue
		}
		sb.WriteString(l)
		sb.WriteString(spaces(min(widest, m.width) - w))
	}
	return sb.String(), true
}
