package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/language"
)

// New-user walk (walk35): at 80 columns the offer detail's long lines
// went on at column 0, so a warning's second line read as a line of its
// own (Chinese especially, which wraps mid-sentence). The lines after the
// first hang where the first line's text starts: past the indent and a
// mark ("! ", "↺ ").
func TestDetailWrapHangs(t *testing.T) {
	for _, tc := range []struct {
		line  string
		width int
		hang  int
	}{
		{"  ! 此作业在 1 块 GPU 上的时间超过一周：考虑更多 GPU 或更快的 GPU，以免作业被中断时需要从头再来一遍训练过程", 40, 4},
		{"  ! this job runs for more than a week on one GPU: consider more GPUs or a faster GPU before renting it", 40, 4},
		{"  needs 14.41 GiB per GPU of 38.00 GiB usable (40 GiB less the 5% margin): 62% headroom", 60, 2},
		{"  每卡需要 14.41 GiB，可用 38.00 GiB（40 GiB 减去 5% 安全余量）：余量 62%，还有更多说明文字放在这里", 50, 2},
		{"  ↺ the GPU lacks bf16: runs fp16, which may need loss scaling and may be slower than the estimate", 44, 4},
	} {
		got := strings.Split(ansi.Strip(wrapKeepingUnits(tc.line, tc.width)), "\n")
		if len(got) < 2 {
			t.Fatalf("%q at %d: not wrapped: %q", tc.line, tc.width, got)
		}
		for i, l := range got {
			if w := ansi.StringWidth(l); w > tc.width {
				t.Errorf("%q: line %d is %d cells, over %d", tc.line, i, w, tc.width)
			}
			if i == 0 || strings.TrimSpace(l) == "" {
				continue
			}
			if lead := len(l) - len(strings.TrimLeft(l, " ")); lead != tc.hang {
				t.Errorf("%q at %d: line %d starts at column %d, want %d:\n%s", tc.line, tc.width, i, lead, tc.hang, strings.Join(got, "\n"))
			}
		}
		if joined := strings.Join(strings.Fields(strings.Join(got, " ")), ""); joined != strings.Join(strings.Fields(strings.ReplaceAll(tc.line, "\u00a0", " ")), "") {
			t.Errorf("%q: the wrap lost or changed text: %q", tc.line, joined)
		}
	}
}

// The detail screen at 80 columns: the headroom line's continuation
// hangs under its text, in English and Chinese.
func TestDetailWrapHangsOnScreen(t *testing.T) {
	for _, lang := range []language.Tag{language.English, language.SimplifiedChinese} {
		m := start(t, newTestApp(t, testCatalog(t), Options{Lang: lang}), size(80, 24), ctrlO, enter)
		if m.detail.offer == nil {
			t.Fatalf("no detail:\n%s", screenText(m))
		}
		text := ansi.Strip(offerDetail(m.lang, m.st, m.detail.offer, m.res, m.cat.AsOf, 60))
		lines := strings.Split(text, "\n")
		for i := 1; i < len(lines); i++ {
			prev, l := lines[i-1], lines[i]
			// A line under an indented line that is not a heading, a
			// blank or a new item of its own hangs too.
			if strings.HasPrefix(prev, "  ") && l != "" && strings.TrimSpace(l) != "" && !strings.HasPrefix(l, " ") &&
				ansi.StringWidth(strings.TrimRight(prev, " ")) > 50 {
				t.Errorf("%s: line %d goes on at column 0 after a wrapped line:\n%s", lang, i, text)
			}
		}
	}
}
