package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/decide"
)

// benchApp is the configurator on the embedded catalog at 120×40 on the
// model page, recomputing in commands as in production.
func benchApp(b *testing.B) app {
	b.Helper()
	m := start(b, newTestApp(b, embeddedCatalog(b), Options{}), size(120, 40), enter, enter)
	m.async = true
	return m
}

// BenchmarkKeystroke is one keystroke that changes the answers (the
// highlighted model) through Update and View: the recompute is started
// (its command is not run here; see BenchmarkRecompute).
func BenchmarkKeystroke(b *testing.B) {
	m := benchApp(b)
	var tm tea.Model = m
	keys := []tea.Msg{down, up}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; b.Loop(); i++ {
		tm, _ = tm.Update(keys[i%2])
		_ = tm.View()
	}
	b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkKeystrokeCached is a keystroke that leaves the answers as
// they were (the cursor moving in a text field): no recompute at all.
func BenchmarkKeystrokeCached(b *testing.B) {
	m := benchApp(b)
	m = drive(b, m, enter, enter) // batch size input
	var tm tea.Model = m
	keys := []tea.Msg{left, right}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; b.Loop(); i++ {
		tm, _ = tm.Update(keys[i%2])
		_ = tm.View()
	}
	b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkRecompute is the command a changed answer starts: estimate,
// match against every offer of the embedded catalog, rank.
func BenchmarkRecompute(b *testing.B) {
	cat := embeddedCatalog(b)
	m := newTestApp(b, cat, Options{})
	cfg, err := m.a.config()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		compute(cat, cfg, nil, m.hf, 1)
	}
	b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkFirstFrame is the start: build the configurator (first
// estimate included), size it and draw the first frame. The catalog is
// loaded once outside the loop; BenchmarkLoadCatalog measures that.
func BenchmarkFirstFrame(b *testing.B) {
	cat := embeddedCatalog(b)
	st := testStyles()
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		m := newApp(cat, Options{}, st, newTheme())
		next, _ := m.Update(size(120, 40))
		_ = next.View()
	}
	b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkLoadCatalog is data.Load, the other part of the first frame.
func BenchmarkLoadCatalog(b *testing.B) {
	for b.Loop() {
		if _, err := data.Load(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKeystrokeListEnd is BenchmarkKeystroke at the end of the
// model list: huh measured every option above the cursor on each move,
// so a move near the end cost several times one near the top.
func BenchmarkKeystrokeListEnd(b *testing.B) {
	m := benchApp(b)
	m = drive(b, m, tea.KeyPressMsg{Code: tea.KeyEnd}, up, up, up)
	var tm tea.Model = m
	keys := []tea.Msg{down, up}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; b.Loop(); i++ {
		tm, _ = tm.Update(keys[i%2])
		_ = tm.View()
	}
	b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkFirstFrameChinese is the first frame drawn in Chinese (the
// same screen as BenchmarkFirstFrame's): every string through the
// catalogue, the panel re-rendered for a new result each time.
func BenchmarkFirstFrameChinese(b *testing.B) {
	m := start(b, newTestApp(b, embeddedCatalog(b), Options{Lang: language.SimplifiedChinese}), size(120, 40))
	b.ReportAllocs()
	for b.Loop() {
		*m.panel.cache = panelCache{} // draw the panel again, as a new result would
		_ = m.View()
	}
}

// BenchmarkFirstFrameEnglish is BenchmarkFirstFrameChinese in English,
// to compare the catalogue's cost.
func BenchmarkFirstFrameEnglish(b *testing.B) {
	m := start(b, newTestApp(b, embeddedCatalog(b), Options{}), size(120, 40))
	b.ReportAllocs()
	for b.Loop() {
		*m.panel.cache = panelCache{}
		_ = m.View()
	}
}

// BenchmarkRecomputeSpot is BenchmarkRecompute under spot pricing with
// the embedded spot rates (data.SpotRates): the command also runs
// report.Decide for the expected figures the views show (decideSpot),
// off the keystroke's path.
func BenchmarkRecomputeSpot(b *testing.B) {
	cat := embeddedCatalog(b)
	rate, _, err := data.SpotRates()
	if err != nil {
		b.Fatal(err)
	}
	m := newTestApp(b, cat, Options{})
	cfg, err := m.a.config()
	if err != nil {
		b.Fatal(err)
	}
	cfg.Search.Pricing = model.Spot
	for _, bc := range []struct {
		name string
		rate func(provider, region, instanceType string) decide.InterruptionRate
	}{{"bare", nil}, {"decided", rate}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				computeSpot(cat, cfg, nil, m.hf, 1, bc.rate)
			}
			b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
