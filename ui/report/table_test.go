package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestLayoutTableMatchesLipgloss holds the fast layout to lipgloss/table's
// bytes (bold header codes included) for the cells reports print: ASCII,
// "×", "—", "…", "¥", CJK (two cells a rune), empty cells, right-aligned
// columns, no rows; and checks cells lipgloss must lay out go to it.
func TestLayoutTableMatchesLipgloss(t *testing.T) {
	right := func(col int) bool { return col >= 2 }
	tests := []struct {
		name    string
		headers []string
		rows    [][]string
		fast    bool // laid out without lipgloss
	}{
		{"ASCII offers", []string{"provider", "instance", "$/h", "GPUs"},
			[][]string{{"aws", "p5.48xlarge", "$55.04", "8×h100"}, {"lambda", "gpu_1x_gh200", "$1.49", "1×gh200"}}, true},
		{"header wider than every cell", []string{"provider name here", "i", "$/h out", "n"},
			[][]string{{"a", "b", "c", "d"}}, true},
		{"empty cells and dashes", []string{"job time", "job cost", "a", "b"},
			[][]string{{"—", "", "…", ""}, {"", "$1,086", "", "x"}}, true},
		{"CJK headers and cells", []string{"提供商", "实例", "每小时", "GPU"},
			[][]string{{"阿里云", "ecs.gn7i-c8g1.2xlarge", "¥8.63", "1×a10"}, {"aws", "g6.xlarge", "$0.805", "1×l4"}}, true},
		{"headers only", []string{"key", "name", "GiB"}, nil, true},
		{"one column", []string{"x"}, [][]string{{"abc"}, {"a"}}, true},
		{"a tab goes to lipgloss", []string{"a", "b", "c"}, [][]string{{"x\ty", "z", "1"}}, false},
		{"a newline goes to lipgloss", []string{"a", "b", "c"}, [][]string{{"x\ny", "z", "1"}}, false},
		{"an escape sequence goes to lipgloss", []string{"a", "b", "c"}, [][]string{{"\x1b[1mx\x1b[m", "z", "1"}}, false},
		{"a short row goes to lipgloss", []string{"a", "b", "c"}, [][]string{{"x", "z"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, fast := cellWidths(tt.headers, tt.rows); fast != tt.fast {
				t.Errorf("laid out without lipgloss = %v, want %v", fast, tt.fast)
			}
			want := lipglossTable(tt.headers, tt.rows, right)
			if got := layoutTable(tt.headers, tt.rows, right, false); got != want {
				t.Errorf("layoutTable =\n%q\nlipgloss/table =\n%q", got, want)
			}
			if got, want := layoutTable(tt.headers, tt.rows, right, true), plainLines(want); got != want {
				t.Errorf("plain layoutTable =\n%q\nlipgloss/table, plain =\n%q", got, want)
			}
		})
	}
}

// FuzzLayoutTable: for any cells, the layout is lipgloss/table's.
func FuzzLayoutTable(f *testing.F) {
	f.Add("aws", "p5.48xlarge", "$55.04", "8×h100 (2 nodes)", uint8(1))
	f.Add("阿里云", "", "¥8.63", "—", uint8(0))
	f.Add("a\tb", "c\r\nd", "\x1b[31mred\x1b[m", "\u0085", uint8(3))
	f.Fuzz(func(t *testing.T, a, b, c, d string, rightCols uint8) {
		right := func(col int) bool { return rightCols&(1<<col) != 0 }
		headers := []string{"provider", "instance", "$/h", "notes"}
		rows := [][]string{{a, b, c, d}, {d, c, b, a}, {"x", "y", "z", "w"}}
		want := lipglossTable(headers, rows, right)
		if got := layoutTable(headers, rows, right, false); got != want {
			t.Errorf("cells %q: layoutTable =\n%q\nlipgloss/table =\n%q", rows, got, want)
		}
		if got, want := layoutTable(headers, rows, right, true), plainLines(want); got != want {
			t.Errorf("cells %q: plain layoutTable =\n%q\nlipgloss/table, plain =\n%q", rows, got, want)
		}
	})
}

// TestTablePlain: the terminal table has the rule under its header and
// pads every cell; on plain output there is no rule and no line ends in a
// blank.
func TestTablePlain(t *testing.T) {
	headers := []string{"provider", "instance", "$/h", "notes"}
	rows := [][]string{{"nebius", "gpu-h200-sxm_1gpu-16vcpu-200gb", "$3.50", ""}, {"aws", "p5.48xlarge", "$55.04", "arm64"}}
	tests := []struct {
		plain bool
		want  string
	}{
		{false, "provider  instance                        $/h     notes  \n" +
			strings.Repeat("─", 10+32+8+5) + "\n" + // to "notes" and "arm64", not their blanks (inkWidth)
			"nebius    gpu-h200-sxm_1gpu-16vcpu-200gb   $3.50         \n" +
			"aws       p5.48xlarge                     $55.04  arm64  "},
		{true, "provider  instance                        $/h     notes\n" +
			"nebius    gpu-h200-sxm_1gpu-16vcpu-200gb   $3.50\n" +
			"aws       p5.48xlarge                     $55.04  arm64"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint("plain=", tt.plain), func(t *testing.T) {
			got := ansi.Strip((&Renderer{Plain: tt.plain}).table(headers, rows, func(col int) bool { return col == 2 }))
			if got != tt.want {
				t.Errorf("table =\n%s\nwant\n%s", strings.ReplaceAll(got, " \n", "·\n"), strings.ReplaceAll(tt.want, " \n", "·\n"))
			}
		})
	}
}

// TestLayoutTableAllocs pins what made `gpuplan offers` over 100,000 rows
// take 12 s of CPU: lipgloss/table allocates for every cell (about 20
// times, 2 GB at 100,000 rows). The layout allocates for the header and
// the output only, however many rows: an allocation count, not a time.
func TestLayoutTableAllocs(t *testing.T) {
	headers := []string{"provider", "instance", "region", "GPUs", "$/h", "notes"}
	rows := make([][]string, 1000)
	for i := range rows {
		rows[i] = []string{"aws", fmt.Sprintf("p%d.48xlarge", i), "us-east-1 +3", "8×h100", "$55.04", ""}
	}
	right := func(col int) bool { return col == 4 }
	if n := testing.AllocsPerRun(3, func() { layoutTable(headers, rows, right, false) }); n > 200 {
		t.Errorf("layoutTable of %d rows allocates %.0f times, want ≤ 200 (independent of the row count)", len(rows), n)
	}
}
