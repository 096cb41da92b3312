package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// readConfig decodes the file at path and returns its configuration.
func readConfig(t *testing.T, path string) config.Config {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := config.Decode(b)
	if err != nil || c.Selection == nil {
		t.Fatalf("%v, selection %v:\n%s", err, c.Selection, b)
	}
	return c
}

func isSelection(o *model.Offer, s *config.Selection) bool {
	return o != nil && o.Instance.Provider == s.Provider && o.Instance.Type == s.InstanceType && o.Region == s.Region &&
		o.Pricing == s.Pricing && o.GPUs == s.GPUs && o.Instances == s.Instances
}

// New-user walk (issue 34): an offer picked in ctrl+o (not the best) and
// exported reopened (--config) on the best offer: the panel showed it,
// ctrl+o's cursor sat on it and ctrl+e wrote it, silently swapping the
// pick. The file's [selection] is now the offer chosen on reopen.
func TestReopenedSelectionStaysPicked(t *testing.T) {
	cat := testCatalog(t)
	m := start(t, newTestApp(t, cat, Options{}), size(120, 40), ctrlO, down, down, down, enter)
	if m.screen != screenDetail || m.detail.offer == nil || m.detail.offer == m.res.best() {
		t.Fatalf("no fourth offer's details:\n%s", screenText(m))
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "pick.toml")
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
	c := roundTrip(t, cat, m, path)
	s := c.Selection
	if best := m.res.best(); isSelection(best, s) {
		t.Fatalf("the test needs a pick other than the best; wrote %+v", *s)
	}

	r := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: path}), size(120, 40))
	if !isSelection(r.panel.chosen, s) {
		t.Fatalf("reopened: the panel's offer is %v, want %s %s %s", r.panel.chosen, s.Provider, s.InstanceType, s.Region)
	}
	if text := screenText(r); !strings.Contains(text, "Picked offer") || !strings.Contains(text, s.InstanceType) {
		t.Errorf("the panel does not show the pick:\n%s", text)
	}
	// Under the form (80×24), the pick's row stands before the best's.
	if text := screenText(drive(t, r, size(80, 24))); !strings.Contains(text, "picked "+s.Provider+" "+s.InstanceType) {
		t.Errorf("the compact panel does not show the pick:\n%s", text)
	}
	zh := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: path, Lang: language.SimplifiedChinese}), size(120, 40))
	if text := screenText(zh); !strings.Contains(text, "已选报价") {
		t.Errorf("the Chinese panel does not show the pick:\n%s", text)
	}
	o := drive(t, r, ctrlO)
	if !isSelection(o.offers.selected(), s) {
		t.Errorf("ctrl+o's cursor on %v, want the file's %s", o.offers.selected(), s.InstanceType)
	}
	// ctrl+e straight away, from the questions: the file's pick again.
	again := filepath.Join(dir, "again.toml")
	r = drive(t, r, msgs(ctrlE, enter, replace(again), enter)...)
	if got := readConfig(t, again).Selection; got.Provider != s.Provider || got.InstanceType != s.InstanceType ||
		got.Region != s.Region || got.GPUs != s.GPUs || got.Pricing != s.Pricing {
		t.Errorf("re-export wrote %s %s %s, want %s %s %s", got.Provider, got.InstanceType, got.Region, s.Provider, s.InstanceType, s.Region)
	}
	// Other answers: the pick was of the file's; the best again.
	r = toPage(t, r, "Batch and length")
	r = drive(t, r, replace("3")...)
	if r.panel.chosen != nil {
		t.Errorf("after a change of answers the panel still shows the file's pick")
	}
}

// A [selection] the answers no longer rank (another catalog) is said once
// in the footer, and the best offer is shown and exported.
func TestReopenedSelectionGone(t *testing.T) {
	cat := testCatalog(t)
	m := start(t, newTestApp(t, cat, Options{}), size(120, 40))
	path := filepath.Join(t.TempDir(), "x.toml")
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
	c := readConfig(t, path)
	c.Selection.Region = "gone-1"
	r := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: path}), size(120, 40))
	if r.panel.chosen != nil {
		t.Fatal("an offer not ranked is shown as picked")
	}
	if text := screenText(r); !strings.Contains(text, "is no longer offered") {
		t.Errorf("the footer does not say the pick is gone:\n%s", text)
	}
	zh := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: path, Lang: language.SimplifiedChinese}), size(120, 40))
	if text := screenText(zh); !strings.Contains(text, "已不再提供") {
		t.Errorf("Chinese footer:\n%s", text)
	}
}

// The length's message says what the configurator reads: 8k is 8000
// (config.ParseTokens), as the command line says; and a length the
// answers refuse (1.5K: a binary suffix takes a whole number) stops Tab
// and enter on its page, as a bad batch size does.
func TestLengthMessageAndWalk(t *testing.T) {
	for _, tt := range []struct {
		lang language.Tag
		want string
	}{
		{language.English, `sequence length: want a whole number of tokens from 1 to 16777216 such as 2048, 8K (8192) or 8k (8000), got "1.5K"`},
		{language.SimplifiedChinese, "如 2048、8K（8192）或 8k（8000），收到"},
	} {
		m := start(t, newTestApp(t, testCatalog(t), Options{Lang: tt.lang}), size(120, 40))
		m = toPage(t, m, "Batch and length")
		page := m.wiz.focusedPage()
		m = drive(t, m, tab)
		m = drive(t, m, replace("1.5K")...)
		if _, err := m.a.config(); err == nil || !strings.Contains(errIn(m.lang, err), tt.want) {
			t.Errorf("answers' error %v, want %q", err, tt.want)
		}
		for _, k := range msgs(tab, enter) {
			m = drive(t, m, k)
			if m.wiz.focusedPage() != page {
				t.Fatalf("%v walked past the invalid length to page %q", k, m.wiz.pages[m.wiz.focusedPage()].title)
			}
		}
		if text := screenText(m); !strings.Contains(strings.ReplaceAll(text, "\n", ""), "8k") {
			t.Errorf("the footer does not say why:\n%s", text)
		}
		// 8k and 8K are lengths.
		for _, v := range []string{"8k", "8K"} {
			if _, err := m.a.parseLength(v); err != nil {
				t.Errorf("%s: %v", v, err)
			}
		}
	}
}

// ctrl+e while an answer is invalid says what to fix, in the UI's
// language, instead of nothing.
func TestExportRefusedSaysWhy(t *testing.T) {
	for _, tt := range []struct {
		lang language.Tag
		want string
	}{
		{language.English, "nothing exported: fix question page"},
		{language.SimplifiedChinese, "未导出：请先改正"},
	} {
		m := start(t, newTestApp(t, testCatalog(t), Options{Lang: tt.lang}), size(120, 40))
		m = toPage(t, m, "Batch and length")
		m = drive(t, m, replace("xy")...)
		m = drive(t, m, tab) // refused: the form holds the field's error
		m = drive(t, m, ctrlE)
		if m.dialog != nil {
			t.Fatal("an export opened on an invalid answer")
		}
		if text := screenText(m); !strings.Contains(text, tt.want) {
			t.Errorf("footer lacks %q:\n%s", tt.want, text)
		}
		// A message that is no key (the cursor's blink) leaves it: the
		// form's error once overwrote it at once.
		m = drive(t, m, struct{ nudge int }{})
		if text := screenText(m); !strings.Contains(text, tt.want) {
			t.Errorf("after a blink the footer lacks %q:\n%s", tt.want, text)
		}
	}
}
