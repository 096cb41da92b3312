package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"golang.org/x/text/language"
)

// A user at 80×24 typed "/H100:8 regions=europe" in the browser: the
// line did not parse ("/" is no part of a spec), the list stayed the
// whole market, and enter pinned the request to that list's first row,
// a GPU never asked for. While the line does not parse the rows are the
// last valid filter's, drawn stale, and enter picks nothing.

// TestBrowseEnterOnInvalidLine: enter on a line that does not parse, or
// that the catalog refuses, leaves the browser and the answers as they
// were and says, in the error line, to fix the filter first; an edit
// takes the saying back.
func TestBrowseEnterOnInvalidLine(t *testing.T) {
	base := start(t, newTestApp(t, testCatalog(t), Options{}), size(80, 24))
	before := base.a.key()
	tests := []struct{ name, line, err string }{
		{"a GPU typo (the spec parser)", "H10:8 regions=europe-", `did you mean H100`},
		{"a provider typo (Browse's check)", "l4 providers=lamda", "did you mean lambda?"},
		{"an open quote", `l4 regions="europe`, "close the quote"},
		{"a slash inside the line: named with the spec to write", "l4 /a100", `starts with "/", which is no part of a spec; write a100`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := drive(t, base, msgs(ctrlB, typed(tt.line))...)
			if !strings.Contains(m.browse.err, tt.err) {
				t.Fatalf("%q: error %q, want %q", tt.line, m.browse.err, tt.err)
			}
			if m.keys.Market.Pick.Enabled() || strings.Contains(screenText(m), "pick GPU") {
				t.Errorf("%q: help offers enter (pick GPU) on rows that are not the line's", tt.line)
			}
			rows := shownRows(&m.browse)
			m = drive(t, m, enter)
			if m.screen != screenBrowse || m.a.key() != before || len(m.a.GPUKeys) != 0 {
				t.Errorf("%q, enter: screen %v, GPU limit %v, answers changed %v; want the browser, nothing picked",
					tt.line, m.screen, m.a.GPUKeys, m.a.key() != before)
			}
			if got := shownRows(&m.browse); !slices.Equal(got, rows) || m.browse.input.Value() != tt.line {
				t.Errorf("%q, enter: rows %q, line %q; want them as they were", tt.line, got, m.browse.input.Value())
			}
			status := strings.Split(screenText(m), "\n")[2] // under the title and the filter
			if !strings.HasPrefix(status, "✗ fix the filter first") {
				t.Errorf("%q, enter: error line %q, want it to say to fix the filter first", tt.line, status)
			}
			m = drive(t, m, runes(" "))
			if s := strings.Split(screenText(m), "\n")[2]; strings.Contains(s, "fix the filter first") || !strings.HasPrefix(s, "✗ ") {
				t.Errorf("%q, an edit: error line %q, want the error alone", tt.line, s)
			}
		})
	}
}

// TestBrowseEnterAfterFix: once the line parses again, enter picks from
// its rows as before.
func TestBrowseEnterAfterFix(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(80, 24), ctrlB)
	m = drive(t, m, msgs(typed("a100-80gb:88"), enter)...)
	if m.screen != screenBrowse || len(m.a.GPUKeys) != 0 {
		t.Fatalf("enter on %q: screen %v, GPU limit %v; want nothing picked", m.browse.input.Value(), m.screen, m.a.GPUKeys)
	}
	m = drive(t, m, tea.KeyPressMsg{Code: tea.KeyBackspace}, enter, enter) // a100-80gb:8: aws p4de.24xlarge
	if m.screen != screenWizard || !slices.Equal(m.a.GPUKeys, []string{"a100-80gb"}) || !slices.Equal(m.a.Providers, []string{"aws"}) || m.a.GPUs != "8" {
		t.Errorf("enter on a100-80gb:8: screen %v, GPUs %v on %v × %s; want the questions, a100-80gb on aws × 8", m.screen, m.a.GPUKeys, m.a.Providers, m.a.GPUs)
	}
}

// TestBrowseLeadingSlash: a "/" typed first, as less, vim and k9s start a
// search, is dropped before the grammar reads the line: the rows and the
// pick are those of the line without it. Only the first one, at the start.
func TestBrowseLeadingSlash(t *testing.T) {
	tests := []struct{ with, without string }{
		{"/", ""},
		{"/a100-80gb:8", "a100-80gb:8"},
		{"  /l4 --all-regions", "l4 --all-regions"},
		{"/ l4 max-price=0.8", "l4 max-price=0.8"},
		{"/--vram 48GB+", "--vram 48GB+"},
	}
	for _, tt := range tests {
		t.Run(tt.with, func(t *testing.T) {
			v := openBrowse(t, 120, 40)
			v.setText(tt.without)
			want := shownRows(v)
			v.setText(tt.with)
			if v.err != "" {
				t.Fatalf("%q: error %q, want the rows of %q", tt.with, v.err, tt.without)
			}
			if got := shownRows(v); !slices.Equal(got, want) {
				t.Errorf("%q lists %q, want %q's %q", tt.with, got, tt.without, want)
			}
		})
	}
	for _, bad := range []string{"//l4", "l4 /a100"} {
		v := openBrowse(t, 120, 40)
		if v.setText(bad); !strings.Contains(v.err, `starts with "/"`) {
			t.Errorf("%q: error %q, want the spec parser's leading-slash error", bad, v.err)
		}
	}

	// The user's line, slash first, then enter: the pick is the line's.
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(80, 24), ctrlB)
	m = drive(t, m, msgs(typed("/a100-80gb:8 regions=us-"), enter, enter)...)
	if m.screen != screenWizard || !slices.Equal(m.a.GPUKeys, []string{"a100-80gb"}) || !slices.Equal(m.a.Regions, []string{"us-east-1"}) {
		t.Errorf("enter on /a100-80gb:8 regions=us-: screen %v, GPUs %v in %v; want the questions, a100-80gb in us-east-1", m.screen, m.a.GPUKeys, m.a.Regions)
	}
}

// TestBrowseStaleRows: while the line does not parse the rows are drawn
// without the cursor and named under the list as the last valid
// filter's; a valid line draws them as its own again.
func TestBrowseStaleRows(t *testing.T) {
	v := openBrowse(t, 80, 24)
	v.setText("l4")
	if s := ansi.Strip(v.view()); !strings.Contains(s, "\n›") || strings.Contains(s, "last valid filter") {
		t.Fatalf("a valid line: want the cursor and no stale note:\n%s", s)
	}
	for _, tt := range []struct{ line, note string }{
		{"l4 vram=24", "rows of the last valid filter: l4"},
		{"l4 vram=24 /", "rows of the last valid filter: l4"}, // "l4 vram=24" failed, "l4" is still the last good line
	} {
		v.setText(tt.line)
		s := ansi.Strip(v.view())
		if strings.Contains(s, "\n›") || !strings.Contains(s, tt.note) {
			t.Errorf("%q: want no cursor and %q:\n%s", tt.line, tt.note, s)
		}
	}
	w := openBrowse(t, 80, 24)
	w.setText("H10")
	if s := ansi.Strip(w.view()); !strings.Contains(s, "rows of the last valid filter: none (the whole market)") {
		t.Errorf("a bad line first: want the whole market named as such:\n%s", s)
	}
}

// TestBrowseInvalidGolden is the browser at 80×24 after the user's
// keys with a GPU typo: "/" first (dropped), a line that does not
// parse, enter. In English and in Chinese.
func TestBrowseInvalidGolden(t *testing.T) {
	keys := msgs(ctrlB, typed("/H10:8 regions=europe-"), enter)
	for _, lang := range []struct {
		name string
		opts Options
	}{{"en", Options{}}, {"zh-CN", zhOptions()}} {
		t.Run(fmt.Sprintf("%s/80x24", lang.name), func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), lang.opts), append([]tea.Msg{size(80, 24)}, keys...)...)
			if m.screen != screenBrowse || len(m.a.GPUKeys) != 0 {
				t.Fatalf("screen %v, GPU limit %v: want the browser, nothing picked", m.screen, m.a.GPUKeys)
			}
			view := m.View().Content
			checkFits(t, view, 80, 24)
			golden.RequireEqual(t, []byte(ansi.Strip(view)))
		})
	}
}

// TestBrowseStaleChinese: the new lines are Chinese under zh-CN.
func TestBrowseStaleChinese(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{Lang: language.SimplifiedChinese}), size(120, 40), ctrlB)
	m = drive(t, m, msgs(typed("H10"), enter)...)
	s := screenText(m)
	for _, want := range []string{"请先修正筛选条件", "上一个有效筛选条件的行"} {
		if !strings.Contains(s, want) {
			t.Errorf("want %q on the screen:\n%s", want, s)
		}
	}
}

// TestBrowseEnterWhileBrowsing: enter while the line's browse is on its
// way (async, as in the program) picks nothing from the previous line's
// rows and says to press it again; once the rows are in, it picks.
func TestBrowseEnterWhileBrowsing(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), ctrlB)
	m.async, m.browse.async = true, true
	var cmd tea.Cmd
	for _, k := range msgs(typed("a100-80gb:8")) {
		tm, c := m.Update(k)
		m, cmd = tm.(app), tea.Batch(cmd, c)
	}
	if !m.browse.pending {
		t.Fatal("the line's browse is not on its way")
	}
	m = drive(t, m, enter, enter) // the first accepts the line, the second would pick
	if m.screen != screenBrowse || len(m.a.GPUKeys) != 0 {
		t.Fatalf("enter while browsing: screen %v, GPU limit %v; want the browser, nothing picked", m.screen, m.a.GPUKeys)
	}
	if s := strings.Split(screenText(m), "\n")[2]; !strings.Contains(s, "browsing… enter again once this line's offers are shown") {
		t.Errorf("status %q: want it to say to press enter again", s)
	}
	for m.browse.pending || m.browse.inflight { // the browses the keys started, in turn
		b := m.browse.launch()
		tm, _ := m.Update(b())
		m = tm.(app)
	}
	_ = cmd
	m = drive(t, m, enter)
	if m.screen != screenWizard || !slices.Equal(m.a.GPUKeys, []string{"a100-80gb"}) || m.a.GPUs != "8" {
		t.Errorf("enter once shown: screen %v, GPUs %v × %s; want the questions, a100-80gb × 8", m.screen, m.a.GPUKeys, m.a.GPUs)
	}
}
