package tui

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuplan/gpuplan/model"
)

// "exported to …" said on the offer's detail page is not news on the
// offers list after esc: a status belongs to the screen it was said on.
func TestExportStatusLeavesWithItsScreen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.toml")
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlO, enter)
	if m.screen != screenDetail {
		t.Fatalf("enter on the offers did not open the detail")
	}
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
	if !strings.Contains(screenText(m), "exported to "+path) {
		t.Fatalf("the detail page does not say the export:\n%s", screenText(m))
	}
	m = drive(t, m, esc)
	if m.screen != screenOffers {
		t.Fatalf("esc on the detail did not go back to the offers")
	}
	if strings.Contains(screenText(m), "exported to") {
		t.Errorf("the offers screen still says the detail's export:\n%s", screenText(m))
	}
}

// s sorting by headroom shows the most headroom first, from the top:
// the cursor kept the offer selected under the old key (the cheapest,
// with the least headroom), so the list opened scrolled to its end and
// read smallest first.
func TestSortOpensOnTheBest(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40), ctrlO)
	for range len(sortCycle) {
		if m.offers.sort == model.SortHeadroom {
			break
		}
		m = drive(t, m, runes("s"))
	}
	if m.offers.sort != model.SortHeadroom {
		t.Fatalf("s never sorted by headroom")
	}
	if m.offers.table.Cursor() != 0 {
		t.Errorf("after sorting the cursor is on row %d, want the first (most headroom)", m.offers.table.Cursor())
	}
	first := m.offers.all[m.offers.shown[0]].HeadroomPct
	for _, i := range m.offers.shown {
		if h := m.offers.all[i].HeadroomPct; h > first+1e-9 {
			t.Fatalf("headroom %.1f%% listed after the first row's %.1f%%", h, first)
		}
	}
	if sel := m.offers.selected(); sel == nil || sel.HeadroomPct != first {
		t.Errorf("selected offer %v, want the first row (headroom %.1f%%)", sel, first)
	}
}

// The compact panel labels the offer under "best" (中文 其次): with no
// label it read as a second best.
func TestCompactPanelLabelsSecondOffer(t *testing.T) {
	for _, c := range []struct {
		opts       Options
		best, then string
	}{{Options{}, "best", "then"}, {zhOptions(), "最佳", "其次"}} {
		m := start(t, newTestApp(t, testCatalog(t), c.opts), size(80, 30))
		var bestLine int = -1
		lines := strings.Split(screenText(m), "\n")
		for i, l := range lines {
			if strings.Contains(l, c.best+" ") && bestLine < 0 {
				bestLine = i
			}
		}
		if bestLine < 0 || bestLine+1 >= len(lines) {
			t.Fatalf("%v: no %q line:\n%s", c.opts.Lang, c.best, screenText(m))
		}
		if !strings.Contains(lines[bestLine+1], c.then+" ") {
			t.Errorf("%v: the line under %q is not labelled %q:\n%s\n%s", c.opts.Lang, c.best, c.then, lines[bestLine], lines[bestLine+1])
		}
	}
}

// The Chinese offer detail says its source in Chinese where the words
// are the catalog's own (labels, how a figure was found; the citations
// stay as written), the date before the English citation (no "，截至"
// after English), and the add-to-plan line joins with the locale's list
// separator, not ASCII commas.
func TestChineseDetailSourceAndPlanLine(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), zhOptions()), size(120, 40))
	m.a.Providers = []string{"do"}
	m.a.Task, m.a.Model = model.TaskInference, "llama-3.1-8b"
	m.recompute()
	var do *model.Offer
	for i := range m.res.rec.Offers {
		if o := &m.res.rec.Offers[i]; o.Instance.Type == "gpu-mi300x1-192gb" {
			do = o
		}
	}
	if do == nil {
		t.Fatalf("no gpu-mi300x1-192gb offer (err %v)", m.res.recErr)
	}
	detail := strings.Join(strings.Fields(ansi.Strip(offerDetail(m.lang, m.st, do, m.res, m.cat.AsOf, 400))), " ")
	i := strings.Index(detail, "来源")
	if i < 0 {
		t.Fatalf("no source line:\n%s", detail)
	}
	src := detail[i:]
	for _, bad := range []string{"stored public code", "unconfirmed by", "，截至", "source:"} {
		if strings.Contains(src, bad) {
			t.Errorf("the Chinese source line has %q:\n%s", bad, src)
		}
	}
	for _, want := range []string{"来源（截至 ", "（公开存储的代码，索引未给出仓库名）", "未经 DigitalOcean 官方页面确认"} {
		if !strings.Contains(src, want) {
			t.Errorf("the Chinese source line lacks %q:\n%s", want, src)
		}
	}

	m = drive(t, m, ctrlO)
	for range m.offers.shown {
		if o := m.offers.selected(); o != nil && o.Instance.Type == do.Instance.Type {
			break
		}
		m = drive(t, m, down)
	}
	m = drive(t, m, runes("a"))
	line := ""
	for _, l := range strings.Split(screenText(m), "\n") {
		if strings.Contains(l, "gpu-mi300x1-192gb") {
			line = l
		}
	}
	if line == "" || strings.Contains(line, ", ") || !strings.Contains(line, "、") || !strings.Contains(line, "/小时") {
		t.Errorf("the add-to-plan line: %q; want 、 between its parts and /小时", line)
	}
}

// Columns get their widths by content: numbers and short names whole,
// long free text (instance types) cut in the middle, CJK by display
// width. Before: at 120×40 the offers cut hyperstack to "hyp…ck" while
// the GPUs kept spare cells, at 80×24 the browser cut "us-east-1 (US) +1" to
// "us-…US) +1", the Chinese plan cut its cost header to "费" and the
// duration to "作业 1… 小时"; at 120×40 the panel cut "~1×rtx-a4000"
// to "~1×r…000" beside a whole "primeintellect".
func TestColumnsByContent(t *testing.T) {
	cat := embeddedCatalog(t)
	m := start(t, newTestApp(t, cat, Options{}), size(120, 40), ctrlO)
	if s := screenText(m); !strings.Contains(s, " hyperstack ") || !strings.Contains(s, " primeintellect ") {
		t.Errorf("offers at 120×40: a provider cut:\n%s", s)
	}
	m = start(t, newTestApp(t, cat, Options{}), size(80, 24), ctrlB)
	if s := screenText(m); !strings.Contains(s, " us-east-1 +1") {
		t.Errorf("browser at 80×24: us-east-1 +1 cut:\n%s", s)
	}
	m = start(t, newTestApp(t, cat, Options{}), size(120, 40))
	if s := screenText(m); regexp.MustCompile(`…[-a-z0-9]*(fp16|bf16|fp32)`).MatchString(s) || !strings.Contains(s, "↺") {
		t.Errorf("panel at 120×40: a precision note kept while its GPU name was cut (the note gives way first):\n%s", s)
	}
	m = start(t, newTestApp(t, cat, zhOptions()), size(80, 24), ctrlO, runes("a"), enter)
	s := screenText(m)
	checkFits(t, m.View().Content, 80, 24)
	if !strings.Contains(s, "费用\n") || !regexp.MustCompile(`作业 [0-9.]+ 小时`).MatchString(s) {
		t.Errorf("Chinese plan at 80×24: the cost header or the duration cut:\n%s", s)
	}
}

// The export dialog's refusal at 80×24 stays on screen with its border,
// and the command it suggests wraps between flags, never inside one
// ("gpuplan export --" / "config FILE" broke copy and paste).
func TestExportRefusalFitsAndKeepsCommand(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		m := start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(sz[0], sz[1])}, bertAnswers()...)...)
		m = drive(t, m, ctrlE, down, down, enter, enter) // torchrun: BERT has no entry point
		if m.dialog == nil || m.dialog.err == nil {
			t.Fatalf("%v: no refusal:\n%s", sz, screenText(m))
		}
		s := screenText(m)
		checkFits(t, m.View().Content, sz[0], sz[1])
		if !strings.Contains(s, "╚") || !strings.Contains(s, "╔") {
			t.Errorf("%v: the dialog lost a border:\n%s", sz, s)
		}
		for _, l := range strings.Split(s, "\n") {
			l = strings.TrimRight(strings.Trim(strings.TrimSpace(l), "║"), " ")
			if strings.HasSuffix(l, "-") || strings.HasSuffix(l, "--config") || strings.HasSuffix(l, "--script") || strings.HasSuffix(l, "--format") {
				t.Errorf("%v: a line ends inside a command: %q", sz, l)
			}
		}
		if !strings.Contains(s, "--script YOUR_SCRIPT") || !strings.Contains(s, "--config FILE") {
			t.Errorf("%v: the suggested command is split:\n%s", sz, s)
		}
	}
}
