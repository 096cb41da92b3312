package tui

import (
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/report"
)

var (
	embeddedOnce sync.Once
	embedded     *model.Catalog
	embeddedErr  error
)

// embeddedCatalog is the real catalog, loaded once.
func embeddedCatalog(tb testing.TB) *model.Catalog {
	tb.Helper()
	embeddedOnce.Do(func() { embedded, embeddedErr = data.Load() })
	if embeddedErr != nil {
		tb.Fatal(embeddedErr)
	}
	return embedded
}

var (
	fixtureOnce sync.Once
	fixture     *model.Catalog
	fixtureErr  error
)

// testCatalog is a fixed catalog read from testdata/catalog with the
// strict loader: GPUs and models as the embedded catalog had them on
// 2026-11-30, a few offers with made-up prices, so that a refresh of the
// embedded catalog cannot rewrite the goldens. Each call returns a copy
// the caller may change.
func testCatalog(tb testing.TB) *model.Catalog {
	tb.Helper()
	fixtureOnce.Do(func() { fixture, fixtureErr = data.LoadTOML(os.DirFS("testdata")) })
	if fixtureErr != nil {
		tb.Fatal(fixtureErr)
	}
	c := *fixture
	c.GPUs = slices.Clone(c.GPUs)
	c.Models = slices.Clone(c.Models)
	c.Discounts = slices.Clone(c.Discounts)
	c.Instances = slices.Clone(c.Instances)
	for i := range c.Instances {
		c.Instances[i].Prices = slices.Clone(c.Instances[i].Prices)
	}
	c.AsOf = "2026-11-30"
	c.Index()
	return &c
}

// cjkCatalog adds offers whose names are wide (CJK, emoji) or ambiguous.
func cjkCatalog(tb testing.TB) *model.Catalog {
	c := testCatalog(tb)
	c.Instances = append(c.Instances,
		model.Instance{Provider: "云算力", Type: "ＧＰＵ服务器-超大型号-🚀🚀", GPU: "l4", GPUCount: 1, VCPUs: 8, MemoryGiB: 32,
			Prices: []model.RegionPrice{{Region: "東京リージョン-１", OnDemandUSD: 0.5}}, Source: "fixture «≈» ±½", AsOf: "2026-11-30"},
		model.Instance{Provider: "aws", Type: "g6.xlarge-é…×", GPU: "l4", GPUCount: 1, VCPUs: 4, MemoryGiB: 16,
			Prices: []model.RegionPrice{{Region: "ap-東-1", OnDemandUSD: 0.6}}, Source: "fixture", AsOf: "2026-11-30"},
	)
	c.Index()
	return c
}

// testRenderer is a dark terminal without colour; goldens compare the
// text only (ansi.Strip) either way.
var testRenderer = &report.Renderer{Profile: colorprofile.ASCII, Dark: true}

func testStyles() *report.Styles {
	st := report.NewStyles(testRenderer)
	return &st
}

// newTestApp is the configurator on cat with recomputes done in Update,
// so that every view is complete once Update returns.
func newTestApp(tb testing.TB, cat *model.Catalog, opts Options) app {
	tb.Helper()
	st := testStyles()
	m := newApp(cat, opts, st, newTheme())
	m.async = false
	return m
}

// start runs m's Init, then drives msgs.
func start(tb testing.TB, m tea.Model, msgs ...tea.Msg) app {
	tb.Helper()
	if init := m.Init(); init != nil {
		m = step(tb, m, init)
	}
	return drive(tb, m, msgs...)
}

// drive sends msgs to m in order, running the commands each returns
// (and theirs) before the next message, as the program would. Text
// cursors stay steady (their blink timers are dropped, see blinks).
// No other command of the configurator waits on a timer, so each is
// awaited up to cmdWait: a loaded machine can take over a second to
// estimate or write an export, and dropping that message (as a
// one-second limit did) left the export dialog open in
// TestExportSameAsCommandLine under load.
func drive(tb testing.TB, m tea.Model, msgs ...tea.Msg) app {
	tb.Helper()
	for _, msg := range msgs {
		m = step(tb, m, func() tea.Msg { return msg })
	}
	return m.(app)
}

// step runs one command's message through Update and follows the commands.
func step(tb testing.TB, m tea.Model, first tea.Cmd) tea.Model {
	tb.Helper()
	queue := []tea.Cmd{first}
	for n := 0; len(queue) > 0; n++ {
		if n > 2000 {
			tb.Fatal("drive: more than 2000 commands; a loop?")
		}
		cmd := queue[0]
		queue = queue[1:]
		if blinks(cmd) {
			continue
		}
		msg := run(cmd)
		if msg == nil {
			continue
		}
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
			// tea.Batch and tea.Sequence: run their commands in order.
			var cmds []tea.Cmd
			for i := range v.Len() {
				if c, ok := v.Index(i).Interface().(tea.Cmd); ok && c != nil {
					cmds = append(cmds, c)
				}
			}
			queue = append(cmds, queue...)
			continue
		}
		if _, ok := msg.(tea.QuitMsg); ok {
			continue
		}
		var next tea.Cmd
		m, next = m.Update(msg)
		if next != nil {
			queue = append(queue, next)
		}
	}
	return m
}

// cmdWait bounds how long drive waits for one command: long enough for
// any real work on a busy CI machine, short enough that a command that
// never returns fails its test (as a missing message) instead of hanging.
const cmdWait = 30 * time.Second

func run(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case msg := <-ch:
		return msg
	case <-time.After(cmdWait):
		return nil
	}
}

// blinks reports whether cmd is a text cursor's blink timer (bubbles'
// cursor.Model.Blink, which sleeps half a second, then toggles the
// cursor and starts the next). The drivers drop it, so the cursor stays
// as focus shows it, steady, and no step waits. huh keeps its text
// inputs private and offers no blink setting; the timer is known by its
// function's name, public in every build.
func blinks(cmd tea.Cmd) bool {
	name := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()).Name()
	return strings.HasPrefix(name, blinkFunc)
}

// blinkFunc is the name of the closure cursor.Model.Blink returns, and
// blinkProbe the cursor that checks it (TestBlinkTimerKnown).
const blinkFunc = "charm.land/bubbles/v2/cursor.(*Model).Blink."

// Keys.
var (
	enter     = tea.KeyPressMsg{Code: tea.KeyEnter}
	esc       = tea.KeyPressMsg{Code: tea.KeyEscape}
	tab       = tea.KeyPressMsg{Code: tea.KeyTab}
	shiftTab  = tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	up        = tea.KeyPressMsg{Code: tea.KeyUp}
	down      = tea.KeyPressMsg{Code: tea.KeyDown}
	left      = tea.KeyPressMsg{Code: tea.KeyLeft}
	right     = tea.KeyPressMsg{Code: tea.KeyRight}
	ctrlE     = ctrl('e')
	ctrlO     = ctrl('o')
	ctrlC     = ctrl('c')
	ctrlZ     = ctrl('z')
	clearLine = ctrl('u')
)

func ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }

// runes is s typed as one key press (a single character, or a paste-like
// burst that inputs take whole).
func runes(s string) tea.KeyPressMsg {
	r := []rune(s)
	return tea.KeyPressMsg{Code: r[0], Text: s}
}

// typed is s typed key by key.
func typed(s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		out = append(out, runes(string(r)))
	}
	return out
}

// replace clears the focused input and types s.
func replace(s string) []tea.Msg { return append([]tea.Msg{clearLine}, typed(s)...) }

func size(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

// screenText is the view without escape sequences, as a person reads it.
func screenText(m app) string { return ansi.Strip(m.View().Content) }

// checkFits fails when a line of the view is wider or the view taller
// than the terminal.
func checkFits(tb testing.TB, view string, w, h int) {
	tb.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		tb.Errorf("view has %d lines on a %d-line terminal", len(lines), h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			tb.Errorf("line %d is %d cells on a %d-cell terminal: %q", i+1, lw, w, ansi.Strip(l))
		}
	}
}

// msgs joins message lists.
func msgs(parts ...any) []tea.Msg {
	var out []tea.Msg
	for _, p := range parts {
		switch v := p.(type) {
		case tea.Msg:
			if list, ok := v.([]tea.Msg); ok {
				out = append(out, list...)
			} else {
				out = append(out, v)
			}
		}
	}
	return out
}

// TestBlinkTimerKnown keeps blinks honest across bubbles upgrades: a
// focused blinking cursor's command is the blink timer, and a command
// that is not one is not taken for it.
func TestBlinkTimerKnown(t *testing.T) {
	c := cursor.New()
	c.SetMode(cursor.CursorBlink)
	cmd := c.Focus()
	if cmd == nil {
		t.Fatal("a focused blinking cursor returned no command")
	}
	if !blinks(cmd) {
		t.Errorf("the blink timer is %s, not under %s: update blinkFunc",
			runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()).Name(), blinkFunc)
	}
	if blinks(cursor.Blink) || blinks(refresh) {
		t.Error("blinks took a command that returns at once for the timer")
	}
}
