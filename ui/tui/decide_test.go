package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpuplan/gpuplan/model"
)

// assumedRate is a provider default as data.SpotRates gives it with no
// advisor feed: 20% a month, an assumption.
func assumedRate(string, string, string) model.InterruptionRate {
	return model.InterruptionRate{PerMonth: 0.2, LowPerMonth: 0.2, Bucket: ">20%", Source: "test default", Assumption: true}
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
