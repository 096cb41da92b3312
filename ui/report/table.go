package report

import (
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"
	"github.com/charmbracelet/x/ansi"
)

// table lays out a report table: a bold header row, then the rows, each
// column as wide as its widest cell plus two blanks, the columns right(col)
// names right-aligned. It is the one place every printed table (offers,
// market, serving, catalog, decide, plan) is drawn, so the terminal and
// plain look is decided once: on a terminal a rule of "─" runs under the
// header; on plain output (r.Plain: a pipe or a file) there is no rule and
// no line ends in blanks, so every line is a header or a row for grep, cut
// and awk. Names are cut or kept whole by the caller with r.Cut, which
// makes the same decision.
func (r *Renderer) table(headers []string, rows [][]string, right func(col int) bool) string {
	return layoutTable(headers, rows, right, r != nil && r.Plain)
}

// layoutTable is the layout of lipgloss/table with a normal border drawn
// only under the header, cells padded two blanks on the right; plain drops
// that rule and the blanks that end a line.
//
// lipgloss/table renders every cell through Style.Render, measuring it
// several times over grapheme clusters: 100,000 offers took 12 s of CPU
// and 2 GB of allocations in `gpuplan offers` (BenchmarkRunOffersCSV100k).
// When every cell is one line of printable text (what the reports put in
// cells) the same bytes are built here measuring each cell once, ASCII by
// its length; otherwise (tabs, newlines, escape sequences, control
// characters) lipgloss lays it out. TestLayoutTableMatchesLipgloss holds
// the two to the same bytes.
func layoutTable(headers []string, rows [][]string, right func(col int) bool, plain bool) string {
	widths, ok := cellWidths(headers, rows)
	if !ok {
		s := lipglossTable(headers, rows, right)
		if plain {
			s = plainLines(s)
		}
		return s
	}
	total := 0
	for _, w := range widths {
		total += w + 2
	}
	b := make([]byte, 0, (len(rows)+2)*(total+1))
	// endLine drops the blanks that end a line on plain output.
	endLine := func() {
		for plain && len(b) > 0 && b[len(b)-1] == ' ' {
			b = b[:len(b)-1]
		}
	}
	head := lipgloss.NewStyle().PaddingRight(2).Bold(true).Height(1)
	for j, h := range headers {
		b = append(b, head.Width(widths[j]+2).Render(h)...)
	}
	endLine()
	if !plain {
		b = append(b, '\n')
		b = append(b, strings.Repeat(lipgloss.NormalBorder().Top, inkWidth(headers, rows, widths, right))...)
	}
	for _, row := range rows {
		b = append(b, '\n')
		for j, c := range row {
			pad := widths[j] - cellWidth(c)
			if right != nil && right(j) {
				b = appendBlanks(b, pad)
				b = append(b, c...)
			} else {
				b = append(b, c...)
				b = appendBlanks(b, pad)
			}
			b = append(b, "  "...)
		}
		endLine()
	}
	return string(b)
}

// inkWidth is the width of the table's widest line without the blanks
// that end it, what the rule under the header spans: a rule as wide as
// the padded columns overhangs the text by at least the last column's
// two blanks and, on a terminal narrower than the padding (-o wide),
// wraps onto a line of its own (walk: the rule wider than the table).
// widths are the columns' widest cells; a right-aligned column's text
// ends at its width, a left-aligned one's at its cell's.
func inkWidth(headers []string, rows [][]string, widths []int, right func(col int) bool) int {
	ink := 0
	line := func(cells []string, head bool) {
		at := 0
		for j, c := range cells {
			if c != "" {
				if !head && right != nil && right(j) {
					ink = max(ink, at+widths[j])
				} else {
					ink = max(ink, at+cellWidth(c))
				}
			}
			at += widths[j] + 2
		}
	}
	line(headers, true)
	for _, row := range rows {
		line(row, false)
	}
	return ink
}

// fitRule is inkWidth for a table lipgloss laid out: the rule under its
// header (line 1) cut to the widest line without its ending blanks.
func fitRule(table string) string {
	lines := strings.Split(table, "\n")
	if len(lines) < 2 || lines[1] == "" || strings.Trim(lines[1], "─") != "" {
		return table
	}
	ink := 0
	for i, l := range lines {
		if i != 1 {
			ink = max(ink, ansi.StringWidth(strings.TrimRight(ansi.Strip(l), " ")))
		}
	}
	lines[1] = strings.Repeat("─", ink)
	return strings.Join(lines, "\n")
}

// cellWidths returns each column's widest cell in terminal cells, and
// false when layoutTable must leave the table to lipgloss: a cell that is
// not one line of printable text, rows not as long as the header, or no
// header.
func cellWidths(headers []string, rows [][]string) ([]int, bool) {
	if len(headers) == 0 {
		return nil, false
	}
	widths := make([]int, len(headers))
	measure := func(cells []string) bool {
		if len(cells) != len(widths) {
			return false
		}
		for j, c := range cells {
			if !printable(c) {
				return false
			}
			widths[j] = max(widths[j], cellWidth(c))
		}
		return true
	}
	if !measure(headers) {
		return nil, false
	}
	for _, row := range rows {
		if !measure(row) {
			return nil, false
		}
	}
	return widths, true
}

// printable reports whether s is valid UTF-8 without C0 or C1 control
// characters (tab, newline, ESC and the rest), so its width is the sum of
// its graphemes' widths and lipgloss would print it unchanged.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return false
		}
		if c >= utf8.RuneSelf {
			for _, r := range s[i:] {
				if r < 0x20 || r >= 0x7f && r < 0xa0 || r == utf8.RuneError {
					return false
				}
			}
			return true
		}
	}
	return true
}

// cellWidth is the terminal width of a printable cell: its length when
// ASCII, else ansi.StringWidth (as lipgloss measures).
func cellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

func appendBlanks(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// plainLines is a table laid out by lipglossTable as on plain output: the
// rule under the (one-line) header dropped, no line ending in blanks.
func plainLines(table string) string {
	lines := strings.Split(table, "\n")
	out := lines[:0]
	for i, l := range lines {
		if i == 1 && l != "" && strings.Trim(l, "─") == "" {
			continue
		}
		out = append(out, strings.TrimRight(l, " "))
	}
	return strings.Join(out, "\n")
}

// lipglossTable is layoutTable by lipgloss/table, for any cells.
func lipglossTable(headers []string, rows [][]string, right func(col int) bool) string {
	return fitRule(table.New().Headers(headers...).Rows(rows...).Border(lipgloss.NormalBorder()).
		BorderRow(false).BorderColumn(false).BorderLeft(false).BorderRight(false).BorderTop(false).BorderBottom(false).
		StyleFunc(func(row, col int) lipgloss.Style {
			s := lipgloss.NewStyle().PaddingRight(2)
			if row == table.HeaderRow {
				return s.Bold(true)
			}
			if right != nil && right(col) {
				return s.Align(lipgloss.Right)
			}
			return s
		}).Render())
}

// tableRight is table with the right-aligned columns given as a set.
func (r *Renderer) tableRight(headers []string, rows [][]string, right map[int]bool) string {
	return r.table(headers, rows, func(col int) bool { return right[col] })
}
