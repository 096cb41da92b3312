package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/report"
)

// assumedRate is a provider default as data.SpotRates gives it with no
// advisor feed: 20% a month, an assumption.
func assumedRate(string, string, string) decide.InterruptionRate {
	return decide.InterruptionRate{PerMonth: 0.2, LowPerMonth: 0.2, Bucket: ">20%", Source: "test default", Assumption: true}
}

// TestGoldenChart pins the bottom of an offer's detail: spot and
// commitment lines, and the time-against-cost chart with its front.
func TestGoldenChart(t *testing.T) {
	keys := append(append([]tea.Msg{}, bertAnswers()...), enter, tea.KeyPressMsg{Code: tea.KeyEnd})
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{SpotRate: assumedRate}), append([]tea.Msg{size(sz[0], sz[1])}, keys...)...)
			view := m.View().Content
			checkFits(t, view, sz[0], sz[1])
			text := ansi.Strip(view)
			for _, want := range []string{"Time against cost", "Pareto front", "assumption"} {
				if !strings.Contains(text, want) {
					t.Errorf("%dx%d: detail lacks %q:\n%s", sz[0], sz[1], want, text)
				}
			}
			golden.RequireEqual(t, []byte(text))
		})
	}
}

// Accessible mode (ACCESSIBLE=1, TERM=dumb) gets no chart: the spot and
// commitment lines and the Pareto front as a table, in plain text.
func TestAccessibleDecisions(t *testing.T) {
	cfg, err := config.Decode([]byte("schema_version = 1\n[workload]\nmodel = \"bert-large\"\ntask = \"finetune\"\ndataset_samples = 88000\nepochs = 2\ngpus = 1\n[search]\npricing = \"spot\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	cat := testCatalog(t)
	res := compute(cat, cfg, nil, &hfReader{}, 0)
	if !res.ok() {
		t.Fatalf("no estimate: %v", res.err)
	}
	tests := []struct {
		name string
		rate func(string, string, string) decide.InterruptionRate
		want []string
	}{
		{"assumed rates", assumedRate, []string{"Spot and commitments", "Commitment", "Time against cost", "job time", "vs next cheaper", "cheapest", "(assumption"}},
		{"no rates", nil, []string{"Commitment", "Time against cost"}},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := writeAccessibleDecisions(&b, &report.Renderer{Profile: colorprofile.NoTTY}, res, accessibleDecisions(cat, res, tt.rate)); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: lacks %q:\n%s", tt.name, w, out)
			}
		}
		if strings.ContainsAny(out, "◆•\x1b") {
			t.Errorf("%s: chart marks or escape codes in the accessible text:\n%s", tt.name, out)
		}
		if tt.rate == nil && strings.Contains(out, "  Spot ") {
			t.Errorf("%s: spot estimates without rates:\n%s", tt.name, out)
		}
	}
}
