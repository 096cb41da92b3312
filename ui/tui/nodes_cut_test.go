package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/ui/report"
)

// New-user walk (walk35): the offers list cut a multi-node GPUs cell to
// "16×h100-…odes) §" (at 120 columns in Chinese), and the serving panel
// below 72 columns likewise: the node count went while the GPU's name
// stayed. The name gives way first, by whole words (report.CutGPUs):
// "16×h100… (2 nodes) §".
func TestNodeCountSurvivesCut(t *testing.T) {
	for _, lang := range []language.Tag{language.English, language.SimplifiedChinese} {
		want := map[language.Tag]string{language.English: "(2 nodes)", language.SimplifiedChinese: "（2 节点）"}[lang]
		check := func(where, view string) {
			t.Helper()
			n := 0
			for _, l := range strings.Split(ansi.Strip(view), "\n") {
				if strings.Contains(l, "16×") {
					n++
					if !strings.Contains(l, want) {
						t.Errorf("%s %s: a multi-node row lost its node count:\n%s", lang, where, ansi.Strip(view))
						return
					}
				}
			}
			if n == 0 {
				t.Errorf("%s %s: no multi-node row:\n%s", lang, where, ansi.Strip(view))
			}
		}
		for _, w := range []int{120, 100, 80} {
			m := start(t, newTestApp(t, testCatalog(t), Options{Lang: lang}), size(w, 30))
			servingMultiNode(&m)
			m = drive(t, m, ctrlO)
			check(fmt.Sprintf("offers at %d columns", w), screenText(m))
		}
		for _, w := range []int{71, 60} {
			m := start(t, newTestApp(t, testCatalog(t), Options{Lang: lang}), size(w, 40))
			servingMultiNode(&m)
			p := m.panel
			p.cache = nil
			p.setSize(w, 40)
			check(fmt.Sprintf("panel at %d columns", w), p.view(false))
		}
	}
}

// report.CutGPUs cuts the key alone, by whole words, and keeps at least
// its first word: the count, the nodes and the "§" stay.
func TestCutGPUsKeepsNodes(t *testing.T) {
	for _, tc := range []struct {
		cell, key string
		n         int
		want      string
	}{
		{"16×h100-sxm (2 nodes) §", "h100-sxm", 23, "16×h100-sxm (2 nodes) §"},
		{"16×h100-sxm (2 nodes) §", "h100-sxm", 20, "16×h100… (2 nodes) §"},
		{"16×a100-80gb（2 节点） §", "a100-80gb", 20, "16×a100…（2 节点） §"},
		{"16×h100-sxm (2 nodes) §", "h100-sxm", 15, "16×h100… (2 nodes) §"}, // wider than 15: the column is made as wide (GPUsLeast)
	} {
		if got := report.CutGPUs(tc.cell, tc.key, tc.n); got != tc.want {
			t.Errorf("CutGPUs(%q, %d) = %q, want %q", tc.cell, tc.n, got, tc.want)
		}
	}
}
