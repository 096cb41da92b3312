package tui

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
)

// keyCatalog adds to the test catalog offers whose GPU keys are long
// (quadro-rtx-6000 runs the job in amp-fp16, a "↺amp-fp16" note after
// it; rtx-pro-6000-ws; 1 of 8×rtx-pro-6000) beside a long instance type
// and provider, as the embedded catalog's cheapest offers are.
func keyCatalog(tb testing.TB) *model.Catalog {
	c := testCatalog(tb)
	add := func(provider, typ, gpu string, count int, usd float64, region string) {
		c.Instances = append(c.Instances, model.Instance{Provider: provider, Type: typ, GPU: gpu, GPUCount: count,
			VCPUs: 8 * count, MemoryGiB: 64 * float64(count), Prices: []model.RegionPrice{{Region: region, OnDemandUSD: usd}},
			Source: "fixture", AsOf: "2026-11-30"})
	}
	add("seeweb", "ECS1GPU", "quadro-rtx-6000", 1, 0.29, "it-fr2")
	add("primeintellect", "datacrunch__1xRTXPRO6000WS_96GB__10__60", "rtx-pro-6000-ws", 1, 0.61, "FI")
	add("oci", "BM.GPU.RTXPRO.8", "rtx-pro-6000", 8, 36, "af-casablanca-1")
	c.Index()
	return c
}

// gpuWord is what follows "×" (or "× ") in a GPUs cell: a GPU key, or
// what is left of one; a figure ("× 384", "×0.61") is not one.
var gpuWord = regexp.MustCompile(`×\s?([a-z…][^\s)]*)`)

// TestGPUKeysWhole: the offers a user may type back by GPU key (--gpu,
// the filter) show every key whole in the panel, the offers list and the
// market browser at 80×24 and 120×40, in English and in Chinese (whose
// wide headers left the GPUs column the fewest cells: "1×a10…40gb",
// "1×quadro…mp-fp16"); the precision note's words and the names around
// them give way first.
//
// The panel beside the questions has 67 cells at 120×40: there, once the
// other names are at their narrowest, a key may lose whole words from its
// end ("1×rtx-pro…"), never part of one; the offers list (ctrl+o) shows it
// whole.
func TestGPUKeysWhole(t *testing.T) {
	cat := keyCatalog(t)
	var keys []string
	for _, g := range cat.GPUs {
		keys = append(keys, g.Key)
	}
	screens := []struct {
		name string
		keys []tea.Msg
	}{
		{"filled", bertAnswers()[:len(bertAnswers())-4]},
		{"offers", bertAnswers()},
		{"browse", msgs(ctrl('b'))},
	}
	for _, lang := range []language.Tag{language.English, language.SimplifiedChinese} {
		for _, sc := range screens {
			for _, sz := range [][2]int{{80, 24}, {120, 40}} {
				t.Run(fmt.Sprintf("%s/%s/%dx%d", lang, sc.name, sz[0], sz[1]), func(t *testing.T) {
					t.Parallel()
					m := start(t, newTestApp(t, cat, Options{Lang: lang}), append([]tea.Msg{size(sz[0], sz[1])}, sc.keys...)...)
					view := m.View().Content
					checkFits(t, view, sz[0], sz[1])
					text := ansi.Strip(view)
					seen := 0
					for _, l := range strings.Split(text, "\n") {
						for _, w := range gpuWord.FindAllStringSubmatch(l, -1) {
							word := strings.TrimPrefix(strings.TrimSuffix(w[1], "↺"), "~")
							if !slices.Contains(keys, word) && !(sc.name == "filled" && wordsOfKey(keys, word)) {
								t.Errorf("GPU key cut to %q in %q", w[1], l)
							}
							seen++
						}
					}
					if seen == 0 {
						t.Errorf("no GPU key on the screen:\n%s", text)
					}
					golden.RequireEqual(t, []byte(text))
				})
			}
		}
	}
}

// wordsOfKey reports whether cut is a key's first words and "…":
// "rtx-pro…" of rtx-pro-6000, not "rtx-pr…" or "a10…".
func wordsOfKey(keys []string, cut string) bool {
	prefix, ok := strings.CutSuffix(cut, "…")
	if !ok || prefix == "" {
		return false
	}
	for _, k := range keys {
		if strings.HasPrefix(k, prefix+"-") {
			return true
		}
	}
	return false
}
