package tui

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
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

// testCatalog is the embedded GPUs and models with a fixed set of
// instances and prices, so that goldens do not change with the catalog's
// prices.
func testCatalog(tb testing.TB) *model.Catalog {
	tb.Helper()
	full := embeddedCatalog(tb)
	c := &model.Catalog{GPUs: full.GPUs, Models: full.Models, Discounts: full.Discounts, AsOf: "2026-11-30"}
	inst := func(provider, typ, gpu string, n, vcpus int, ram, net float64, link string, prices ...model.RegionPrice) model.Instance {
		return model.Instance{Provider: provider, Type: typ, GPU: gpu, GPUCount: n, VCPUs: vcpus, MemoryGiB: ram, NetworkGbps: net,
			Interconnect: link, Prices: prices, Source: "test fixture", AsOf: "2026-11-30"}
	}
	p := func(region string, onDemand, spot float64) model.RegionPrice {
		return model.RegionPrice{Region: region, OnDemandUSD: onDemand, SpotUSD: spot}
	}
	c.Instances = []model.Instance{
		inst("aws", "g6.xlarge", "l4", 1, 4, 16, 10, "pcie", p("us-east-1", 0.8048, 0.35), p("eu-west-1", 0.89, 0)),
		inst("aws", "g5.xlarge", "a10g", 1, 4, 16, 10, "pcie", p("us-east-1", 1.006, 0.45)),
		inst("aws", "g6e.xlarge", "l40s", 1, 4, 32, 20, "pcie", p("us-east-1", 1.861, 0)),
		inst("aws", "p4de.24xlarge", "a100-80gb", 8, 96, 1152, 400, "nvswitch", p("us-east-1", 40.97, 16.2)),
		inst("aws", "p5.48xlarge", "h100-sxm", 8, 192, 2048, 3200, "nvswitch", p("us-east-1", 98.32, 0)),
		inst("gcp", "g2-standard-4", "l4", 1, 4, 16, 10, "pcie", p("us-central1", 0.7068, 0.28), p("europe-west4", 0.78, 0)),
		inst("gcp", "a2-ultragpu-1g", "a100-80gb", 1, 12, 170, 24, "nvlink", p("us-central1", 5.07, 2.0)),
		inst("lambda", "gpu_1x_a100_sxm4", "a100-40gb", 1, 30, 200, 0, "", p("us-east-1", 1.29, 0), p("us-west-1", 1.29, 0)),
		inst("lambda", "gpu_1x_h100_pcie", "h100-pcie", 1, 26, 200, 0, "", p("us-west-1", 2.49, 0)),
		inst("azure", "Standard_NC24ads_A100_v4", "a100-80gb", 1, 24, 220, 20, "", p("eastus", 3.673, 1.1)),
		inst("vast", "1x RTX 4090", "rtx-4090", 1, 16, 64, 1, "", p("Bavaria, DE, EU", 0.35, 0)),
	}
	c.Index()
	return c
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
// cursors are made steady first (a blinking cursor's command waits half
// a second); commands still running after a second (spinner ticks) are
// dropped.
func drive(tb testing.TB, m tea.Model, msgs ...tea.Msg) app {
	tb.Helper()
	for _, msg := range msgs {
		steadyCursors(m.(app))
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
		steadyCursors(m.(app)) // a dialog may have just opened
		if next != nil {
			queue = append(queue, next)
		}
	}
	return m
}

func run(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case msg := <-ch:
		return msg
	case <-time.After(time.Second):
		return nil
	}
}

// steadyCursors sets every text cursor of the form and the dialog to
// static. huh keeps its text inputs private, so reflection reaches them:
// Input.textinput, and the search field of Select and MultiSelect.
func steadyCursors(m app) {
	var fields []huh.Field
	for _, fs := range m.wiz.fields {
		fields = append(fields, fs...)
	}
	if m.dialog != nil {
		fields = append(fields, m.dialog.fields...)
	}
	for _, f := range fields {
		v := reflect.ValueOf(f)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			continue
		}
		for _, name := range []string{"textinput", "filter"} {
			ti := v.Elem().FieldByName(name)
			if !ti.IsValid() || ti.Type() != reflect.TypeOf(textinput.Model{}) {
				continue
			}
			t := reflect.NewAt(ti.Type(), unsafe.Pointer(ti.UnsafeAddr())).Interface().(*textinput.Model)
			if st := t.Styles(); st.Cursor.Blink {
				st.Cursor.Blink = false // huh restyles from these, so it stays off
				t.SetStyles(st)
			}
		}
	}
}

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
