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
// header; on plain output (r.Plain: a pipe or a file) there is no rule, so
// every line is a header or a row for grep, cut and awk. Names are cut or
// kept whole by the caller with r.Cut, which makes the same decision.
func (r *Renderer) table(headers []string, rows [][]string, right func(col int) bool) string {
	return r.plainRule(layoutTable(headers, rows, right))
}

// layoutTable is table before the plain-output rules: the layout of
// lipgloss/table with a normal border drawn only under the header, cells
// padded two blanks on the right.
//
// lipgloss/table renders every cell through Style.Render, measuring it
// several times over grapheme clusters: 100,000 offers took 12 s of CPU
// and 2 GB of allocations in `gpuplan offers` (BenchmarkRunOffersCSV100k).
// When every cell is one line of printable text (what the reports put in
// cells) the same bytes are built here measuring each cell once, ASCII by
// its length; otherwise (tabs, newlines, escape sequences, control
// characters) lipgloss lays it out. TestLayoutTableMatchesLipgloss holds
// the two to the same bytes.
func layoutTable(headers []string, rows [][]string, right func(col int) bool) string {
	widths, ok := cellWidths(headers, rows)
	if !ok {
		return lipglossTable(headers, rows, right)
	}
	total := 0
	for _, w := range widths {
		total += w + 2
	}
	var b strings.Builder
	b.Grow((len(rows) + 2) * (total + 1))
	head := lipgloss.NewStyle().PaddingRight(2).Bold(true).Height(1)
	for j, h := range headers {
		b.WriteString(head.Width(widths[j] + 2).Render(h))
	}
	b.WriteByte('\n')
	b.WriteString(strings.Repeat(lipgloss.NormalBorder().Top, total))
	for _, row := range rows {
		b.WriteByte('\n')
		for j, c := range row {
			pad := widths[j] - cellWidth(c)
			if right != nil && right(j) {
				writeBlanks(&b, pad)
				b.WriteString(c)
			} else {
				b.WriteString(c)
				writeBlanks(&b, pad)
			}
			b.WriteString("  ")
		}
	}
	return b.String()
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

const blanks = "                                                                "

func writeBlanks(b *strings.Builder, n int) {
	for n > len(blanks) {
		b.WriteString(blanks)
		n -= len(blanks)
	}
	if n > 0 {
		b.WriteString(blanks[:n])
	}
}

// lipglossTable is layoutTable by lipgloss/table, for any cells.
func lipglossTable(headers []string, rows [][]string, right func(col int) bool) string {
	return table.New().Headers(headers...).Rows(rows...).Border(lipgloss.NormalBorder()).
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
		}).Render()
}
