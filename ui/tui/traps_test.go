package tui

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/report"
)

// Trap: piped or terminal-less runs dying with "open /dev/tty". Given
// plain streams, the program reads keys from them and never opens the
// terminal itself (the command line refuses to start without one; see
// ui/cli TestConfiguratorNeedsTerminal).
func TestRunWithoutTerminal(t *testing.T) {
	var out, errb bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), testCatalog(t), Options{In: strings.NewReader("q"), Out: &out, Err: &errb,
			Getenv: func(string) string { return "" }})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after q")
	}
	if out.Len() != 0 {
		t.Errorf("stdout got %q; the screen belongs on stderr", out.String())
	}
	if strings.Contains(errb.String(), "/dev/tty") {
		t.Errorf("stderr mentions /dev/tty: %q", errb.String())
	}
	measureLikeLipgloss()
}

// brokenResult makes Update panic: an offer without an instance.
func brokenResult(seq int) resultMsg {
	return resultMsg{&result{seq: seq, est: &model.Estimate{}, rec: model.Recommendation{Offers: []model.Offer{{}}}}}
}

// Trap: a panic leaving the terminal in raw mode. A panic in Update is
// caught, the program quits normally (which restores the terminal) and
// the error says where to report it; the details go to stderr.
func TestPanicInUpdateIsReported(t *testing.T) {
	m := newTestApp(t, testCatalog(t), Options{})
	m.screen = screenOffers
	var errb bytes.Buffer
	p := tea.NewProgram(m, tea.WithInput(&bytes.Buffer{}), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	go p.Send(brokenResult(m.seq))
	err := finish(context.Background(), m, p, &errb)
	if err == nil || !strings.Contains(err.Error(), IssuesURL) || !strings.Contains(err.Error(), "internal error") {
		t.Fatalf("finish() error = %v, want an internal error pointing to %s", err, IssuesURL)
	}
	if !strings.Contains(errb.String(), "goroutine") || !strings.Contains(errb.String(), "gpuplan: internal error") {
		t.Errorf("stderr lacks the stack trace:\n%s", errb.String())
	}
}

// A panic in a command goroutine (the recompute) is reported the same way.
func TestPanicInCommandIsReported(t *testing.T) {
	calls := 0
	opts := Options{ReadHFConfig: func(string, model.Task) (model.Architecture, model.Precision, []string, error) {
		calls++
		panic("reader bug")
	}}
	m := newApp(testCatalog(t), opts, testStyles(), newTheme())
	m.a.Model, m.a.HFPath = modelHF, "x/config.json"
	cmd := m.recompute()
	msg := cmd()
	if _, ok := msg.(crashMsg); !ok {
		t.Fatalf("recompute of a panicking reader gave %T, want crashMsg", msg)
	}
	next, quit := m.Update(msg)
	if quit == nil || next.(app).crash.info == nil || calls != 1 {
		t.Errorf("Update(crashMsg) did not quit with the crash recorded")
	}
}

// Trap: tables wider than the terminal; cut content without an ellipsis.
func TestTablesFitTheTerminal(t *testing.T) {
	for _, w := range []int{60, 72, 80, 100, 120, 200} {
		m := start(t, newTestApp(t, cjkCatalog(t), Options{}), append([]tea.Msg{size(w, 30)}, bertAnswers()...)...)
		view := m.View().Content
		checkFits(t, view, w, 30)
		text := ansi.Strip(view)
		if !strings.Contains(text, "GPUs") {
			t.Errorf("width %d: the table lost its GPUs column:\n%s", w, text)
		}
		if w < 120 && !strings.Contains(text, "…") {
			t.Errorf("width %d: long names are cut without an ellipsis:\n%s", w, text)
		}
		// Every row of the table is as wide as its header: columns line up.
		lines := strings.Split(text, "\n")
		header := lines[2]
		for _, l := range lines[4:] {
			if strings.TrimSpace(l) == "" || strings.Contains(l, "esc back") || strings.Contains(l, "answered") {
				continue
			}
			if ansi.StringWidth(strings.TrimRight(l, " ")) > ansi.StringWidth(strings.TrimRight(header, " "))+1 {
				t.Errorf("width %d: row wider than the header:\n%q\n%q", w, header, l)
			}
		}
	}
	// The panel's table too, on every screen size.
	for _, w := range []int{60, 80, 99, 100, 130} {
		m := start(t, newTestApp(t, cjkCatalog(t), Options{}), size(w, 30))
		checkFits(t, m.View().Content, w, 30)
	}
}

// Trap: emoji, CJK and ambiguous-width glyphs breaking borders and
// alignment, also in a CJK locale where go-runewidth counts ambiguous
// glyphs (…, ×, ·) as two cells unless told otherwise.
func TestWideText(t *testing.T) {
	old := runewidth.DefaultCondition
	t.Cleanup(func() { runewidth.DefaultCondition = old })
	for _, cjkLocale := range []bool{false, true} {
		runewidth.EastAsianWidth = cjkLocale
		runewidth.DefaultCondition = runewidth.NewCondition()
		measureLikeLipgloss() // what Run does first
		if runewidth.StringWidth("…×·") != 3 {
			t.Fatalf("ambiguous glyphs measure %d cells, want 3", runewidth.StringWidth("…×·"))
		}
		m := start(t, newTestApp(t, cjkCatalog(t), Options{}), append([]tea.Msg{size(90, 30)}, bertAnswers()...)...)
		for range 20 {
			m = drive(t, m, down)
			view := m.View().Content
			checkFits(t, view, 90, 30)
			if strings.Contains(ansi.Strip(view), "ＧＰＵ") {
				break
			}
		}
		m = drive(t, m, enter) // the detail of a wide-named offer
		view := m.View().Content
		checkFits(t, view, 90, 30)
		if !strings.Contains(ansi.Strip(view), "云算力") {
			t.Errorf("cjk locale %v: the detail of the wide offer is not shown:\n%s", cjkLocale, ansi.Strip(view))
		}
		for i, l := range strings.Split(view, "\n") {
			if ansi.StringWidth(l) != 90 && strings.Contains(l, "│") {
				t.Errorf("line %d is %d cells, want 90 (a border moved): %q", i, ansi.StringWidth(l), ansi.Strip(l))
			}
		}
	}
	if got := report.Truncate("ＧＰＵ服务器-🚀", 7); ansi.StringWidth(got) > 7 || !strings.HasSuffix(got, "…") {
		t.Errorf("Truncate = %q (%d cells), want at most 7 cells ending in …", got, ansi.StringWidth(got))
	}
}

// Trap: tiny terminals and resizes causing negative widths, panics or
// lost focus. Resizing to any size, on every screen, never panics, the
// view always fits, and the focus and the answers stay where they were.
func TestResizes(t *testing.T) {
	sizes := [][2]int{{0, 0}, {1, 1}, {20, 5}, {300, 100}, {200, 60}, {59, 19}, {60, 20}, {10, 100}, {300, 5}, {99, 30}, {100, 30}, {61, 21}, {80, 24}}
	half := msgs(enter, up, up, enter, runes("/"), typed("bert-large"), enter, enter, replace("32"), enter) // the length input focused
	for _, sc := range []struct {
		name string
		keys []tea.Msg
	}{
		{"wizard", half},
		{"offers", bertAnswers()},
		{"detail", append(bertAnswers(), enter)},
		{"export", append(bertAnswers(), enter, ctrlE)},
		{"help", []tea.Msg{runes("?")}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(120, 40)}, sc.keys...)...)
			page, field, key := m.wiz.focusedPage(), m.wiz.form.GetFocusedField(), m.a.key()
			scr, dialogOpen := m.screen, m.dialog != nil
			for _, s := range sizes {
				m = drive(t, m, size(s[0], s[1]))
				view := m.View().Content
				if s[0] >= minWidth && s[1] >= minHeight {
					checkFits(t, view, s[0], s[1])
				} else if s[0] >= 30 && !strings.Contains(strings.Join(strings.Fields(ansi.Strip(view)), " "), "too small") {
					t.Errorf("%dx%d: no too-small message", s[0], s[1])
				}
			}
			if m.wiz.focusedPage() != page || m.wiz.form.GetFocusedField() != field || m.a.key() != key ||
				m.screen != scr || (m.dialog != nil) != dialogOpen {
				t.Errorf("resizing lost the focus or the answers")
			}
			if sc.name == "wizard" {
				m = drive(t, m, replace("512")...)
				if m.a.Length != "512" {
					t.Errorf("after resizes, typing went elsewhere: length = %q", m.a.Length)
				}
			}
		})
	}
}

// Trap: NO_COLOR not honoured. With NO_COLOR the screen is drawn without
// colour codes (Bubble Tea v2 writes the frame downsampled to the profile
// given), and what colour marked (the chosen button, the selected row)
// still shows: [on], ›, reverse video.
func TestNoColor(t *testing.T) {
	profile := screenProfile(&bytes.Buffer{}, func(k string) string {
		switch k {
		case "NO_COLOR":
			return "1"
		case "CLICOLOR_FORCE": // as if on a colour terminal
			return "1"
		case "TERM":
			return "xterm-256color"
		}
		return ""
	})
	if profile != colorprofile.ASCII {
		t.Fatalf("NO_COLOR: colour profile %v, want ASCII", profile)
	}
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), enter, enter, enter, enter, enter, enter, enter)
	var out bytes.Buffer
	w := &colorprofile.Writer{Forward: &out, Profile: profile}
	io.WriteString(w, m.View().Content)
	view := out.String()
	if strings.Contains(view, "\x1b[38") || strings.Contains(view, "\x1b[48") || strings.Contains(view, "\x1b[3") && regexp.MustCompile(`\x1b\[[0-9;]*3[0-9]m`).MatchString(view) {
		t.Errorf("the view has colour codes without colour support")
	}
	if !strings.Contains(ansi.Strip(view), "[ on ]") {
		t.Errorf("the chosen button is not marked without colour:\n%s", ansi.Strip(view))
	}
}

// Light and dark backgrounds get different colours (lipgloss.LightDark),
// decided once per background, not per frame; a 16-colour terminal gets
// no true colour.
func TestAdaptiveColours(t *testing.T) {
	render := func(dark bool) string {
		st := report.NewStyles(&report.Renderer{Profile: colorprofile.TrueColor, Dark: dark})
		return st.Title.Render("x") + st.Muted.Render("x")
	}
	if render(true) == render(false) {
		t.Error("light and dark backgrounds render the same colours")
	}
	r := &report.Renderer{Profile: colorprofile.ANSI, Dark: true} // a 16-colour terminal
	st := report.NewStyles(r)
	var out bytes.Buffer
	io.WriteString(r.Writer(&out), st.Title.Render("x"))
	if s := out.String(); !strings.Contains(s, "x") || strings.Contains(s, "38;2") {
		t.Errorf("16 colours: %q uses true colour", s)
	}
}

// pageOf drives to page title n (by pressing enter) and returns the app.
func toPage(t *testing.T, m app, title string) app {
	t.Helper()
	for range 40 {
		if m.wiz.pages[m.wiz.focusedPage()].title == title {
			return m
		}
		m = drive(t, m, enter)
	}
	t.Fatalf("page %q not reached", title)
	return m
}

// Trap: cascading choices showing empty, stale or wrongly preselected
// options. Regions follow the providers: a region only one provider has
// goes when that provider goes, and does not come back with it.
func TestCascadingRegions(t *testing.T) {
	m := toPage(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "Where")
	regionOptions := func() []string {
		var out []string
		for _, o := range m.wiz.regionOptions() {
			out = append(out, o.Value)
		}
		return out
	}
	if got := regionOptions(); !slices.Contains(got, "us-east-1") || !slices.Contains(got, "us-central1") || slices.Contains(got, "Bavaria, DE, EU") {
		t.Fatalf("no provider chosen: regions %v, want all but the marketplace's", got)
	}
	// Providers are listed alphabetically: aws azure gcp lambda vast.
	m = drive(t, m, runes("x"), tab) // aws
	if got := regionOptions(); !slices.Equal(got, []string{"eu-west-1", "us-east-1"}) {
		t.Errorf("aws: regions %v, want eu-west-1 us-east-1", got)
	}
	m = drive(t, m, down, runes("x")) // us-east-1 (the list is sorted: eu-west-1, us-east-1)
	if !slices.Equal(m.a.Regions, []string{"us-east-1"}) {
		t.Fatalf("regions = %v, want us-east-1", m.a.Regions)
	}
	m = drive(t, m, shiftTab, runes("x"), down, down, runes("x"), tab) // aws off, gcp on
	if !slices.Equal(m.a.Providers, []string{"gcp"}) {
		t.Fatalf("providers = %v, want gcp", m.a.Providers)
	}
	if len(m.a.Regions) != 0 {
		t.Errorf("after switching to gcp the regions are %v: stale", m.a.Regions)
	}
	if got := regionOptions(); !slices.Equal(got, []string{"europe-west4", "us-central1"}) {
		t.Errorf("gcp: regions %v", got)
	}
	if view := ansi.Strip(m.View().Content); strings.Contains(view, "eu-west-1") {
		t.Errorf("the screen still shows aws's regions:\n%s", view)
	}
	for _, r := range m.res.rec.Offers {
		if r.Instance.Provider != "gcp" {
			t.Errorf("offer from %s after choosing gcp only", r.Instance.Provider)
		}
	}
	m = drive(t, m, shiftTab, up, up, runes("x"), tab) // aws back on
	if len(m.a.Regions) != 0 {
		t.Errorf("choosing aws again brought back regions %v", m.a.Regions)
	}
}

// Trap: a zero price written for "unknown" and read back as "free".
func TestExportWritesNoZeroPrice(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m.a.Dataset = "" // no dataset: no job time or cost
	m.recompute()
	b, err := exportConfig(m.a, m.res, nil, "2026-11-30")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if strings.Contains(s, "job_cost_usd") || regexp.MustCompile(`= 0(\.0*)?\s`).MatchString(s) {
		t.Errorf("unknown values written as zero:\n%s", s)
	}
	if !strings.Contains(s, `catalog_as_of = "2026-11-30"`) {
		t.Errorf("catalog date not a quoted string:\n%s", s)
	}
	if _, err := model.DecodeConfig(b); err != nil {
		t.Errorf("export does not load: %v", err)
	}
}

// q and ctrl+c ask first when the answers were not exported; with
// nothing changed they quit at once.
func TestQuitAsksFirst(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	if _, cmd := m.Update(runes("q")); cmd == nil || cmd() != tea.Quit() {
		t.Error("q with nothing changed did not quit")
	}
	m = drive(t, m, down) // framework: TensorFlow
	m = drive(t, m, runes("q"))
	if m.dialog == nil || m.dialog.kind != dialogQuit || !strings.Contains(ansi.Strip(m.View().Content), "Quit without exporting?") {
		t.Fatalf("q with changes did not ask:\n%s", ansi.Strip(m.View().Content))
	}
	m = drive(t, m, runes("n"))
	if m.dialog != nil {
		t.Error("n did not close the question")
	}
	m = drive(t, m, ctrlC)
	if _, cmd := m.Update(ctrlC); cmd == nil || cmd() != tea.Quit() {
		t.Error("ctrl+c twice did not quit")
	}
	// In a text field q is a letter.
	m = toPage(t, m, "Batch and length")
	m = drive(t, m, runes("q"))
	if m.dialog != nil || !strings.HasSuffix(m.a.Batch, "q") {
		t.Errorf("q in a text field: dialog %v, batch %q", m.dialog != nil, m.a.Batch)
	}
}

// Every key the help shows works where it is shown.
func TestHelpKeys(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
	m = drive(t, m, runes("?"))
	if !m.fullHelp || !strings.Contains(ansi.Strip(m.View().Content), "all offers") {
		t.Fatal("? did not open the full help")
	}
	m = drive(t, m, runes("?"), enter, enter) // model page
	m = drive(t, m, esc)
	if m.wiz.pages[m.wiz.focusedPage()].title != "Workload" {
		t.Errorf("esc did not go to the previous page")
	}
	m = drive(t, m, ctrlO)
	if m.screen != screenOffers {
		t.Fatal("ctrl+o did not show the offers")
	}
	before := m.offers.sort
	m = drive(t, m, runes("s"))
	if m.offers.sort == before || m.a.extra.Sort != m.res.rec.Sort {
		t.Errorf("s: sort %s → %s (answers %s, ranking %s)", before, m.offers.sort, m.a.extra.Sort, m.res.rec.Sort)
	}
	m = drive(t, m, runes("p"))
	if m.offers.provider == "" {
		t.Error("p did not filter by provider")
	}
	for _, i := range m.offers.shown {
		if m.offers.all[i].Instance.Provider != m.offers.provider {
			t.Errorf("filter %s shows %s", m.offers.provider, m.offers.all[i].Instance.Provider)
		}
	}
	m = drive(t, m, down, enter)
	if m.screen != screenDetail {
		t.Fatal("enter did not open the detail")
	}
	m = drive(t, m, ctrlE)
	if m.dialog == nil {
		t.Fatal("ctrl+e did not open the export dialog")
	}
	m = drive(t, m, esc, esc, esc)
	if m.dialog != nil || m.screen != screenWizard {
		t.Errorf("esc did not close the dialog, then go back twice: screen %v", m.screen)
	}
}

// Results of older answers arriving late are dropped.
func TestStaleResultsDropped(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), enter, enter)
	m.async = true
	m = drive(t, m)              // no-op
	next, cmd1 := m.Update(down) // model: next in the list
	m = next.(app)
	next, cmd2 := m.Update(down)
	m = next.(app)
	r2, r1 := run(cmd2), run(cmd1)
	want := m.a.Model
	m = drive(t, m, r2, r1)
	if m.res.workload.Model.Key != want {
		t.Errorf("panel shows %s, want the latest answer %s", m.res.workload.Model.Key, want)
	}
}

// ACCESSIBLE=1 / TERM=dumb: plain prompts (pages that do not apply are
// not asked), a text summary on stdout, and an export.
func TestAccessible(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.toml")
	var out, prompts bytes.Buffer
	// Every default: 13 questions, the two lists (0 ends a list), 4 more, then the export's file name.
	script := strings.Repeat("\n", 13) + "0\n0\n" + strings.Repeat("\n", 4) + path + "\n"
	err := runAccessible(context.Background(), testCatalog(t), Options{In: strings.NewReader(script), Out: &out, Err: &prompts}, testStyles())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(prompts.String(), "Custom model") || strings.Contains(prompts.String(), "Inference precision") {
		t.Errorf("hidden pages were asked:\n%s", prompts.String())
	}
	if !strings.Contains(out.String(), "Llama 3.1 8B") || !strings.Contains(out.String(), "best:") {
		t.Errorf("summary lacks the model or the best offer:\n%s", out.String())
	}
	if strings.Contains(out.String(), "\x1b[") {
		t.Error("the summary has escape codes")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("not exported: %v\nprompts:\n%s", err, prompts.String())
	}
	if _, err := model.DecodeConfig(b); err != nil {
		t.Error(err)
	}
}

// No lost work: an export into a missing directory or one that cannot be
// written shows why in the dialog, and every answer stays as it was.
func TestExportFailureKeepsAnswers(t *testing.T) {
	for _, path := range []string{filepath.Join(t.TempDir(), "missing", "gpuplan.toml"), "/proc/gpuplan.toml"} {
		m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
		m = drive(t, m, msgs(runes("?"), runes("?"))...) // touch nothing of the answers
		before := m.a.key()
		m = drive(t, m, ctrlE)
		if m.dialog == nil {
			t.Fatal("ctrl+e opened no dialog")
		}
		m = drive(t, m, msgs(enter, replace(path), enter)...) // TOML, then the path
		if m.dialog == nil || m.dialog.err == nil {
			t.Fatalf("%s: no error shown in the dialog", path)
		}
		if m.a.key() != before {
			t.Errorf("%s: the answers changed after a failed export", path)
		}
		if !strings.Contains(screenText(m), "✗") {
			t.Errorf("%s: the error is not on screen:\n%s", path, screenText(m))
		}
	}
}
