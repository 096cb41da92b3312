package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
)

// borderlineCatalog is the test catalog with two cheap V100 16GB hosts,
// as a new user's catalog had them (verda 1V100.6V and Prime Intellect's
// datacrunch resale, about $0.14/h): the first screen's QLoRA of Llama 3.1 8B
// needs 14.41 GiB, under the V100's usable memory, with a 90% band that
// reaches past it, so the two cheapest offers are borderline (about 10%
// chance of running out of memory, which ranks them as offers that fit:
// model.RiskyChance).
func borderlineCatalog(t *testing.T) *model.Catalog {
	cat := testCatalog(t)
	for _, in := range []struct {
		provider, typ, region string
		usd                   float64
	}{
		{"verda", "1V100.6V", "FIN-01", 0.139},
		{"primeintellect", "datacrunch__1xV100_16GB__6__23", "FI", 0.141},
	} {
		cat.Instances = append(cat.Instances, model.Instance{Provider: in.provider, Type: in.typ, GPU: "v100-16gb", GPUCount: 1, VCPUs: 6,
			MemoryGiB: 23, Source: "test fixture", AsOf: "2026-11-30", Prices: []model.RegionPrice{{Region: in.region, OnDemandUSD: in.usd}}})
	}
	cat.Index()
	return cat
}

// TestBorderlineCompactGolden: at 80×24 the compact panel marks a
// borderline best offer (and the offer after it) with "~" on its GPUs, as
// the wide panel's table does, and says the verdict and the chance on the
// count's line, in English and Chinese. Before, the compact panel read
// "best verda 1V100.6V … $1.54" with no mark while recommend, the wide
// panel and the detail gave it about a 10% chance of running out of memory.
func TestBorderlineCompactGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
		want []string
	}{
		{"en", Options{}, []string{"best verda 1V100.6V FIN-01 ~1×v100-16gb", "then primeintellect", "~ borderline: about 10% chance of running out of memory · "}},
		{"zh", Options{Lang: language.SimplifiedChinese}, []string{"~1×v100-16gb", "~ 显存紧张：显存不足的概率约 10% · "}},
	} {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s/%dx%d", tc.name, sz[0], sz[1]), func(t *testing.T) {
				m := start(t, newTestApp(t, borderlineCatalog(t), tc.opts), size(sz[0], sz[1]))
				if o := m.res.best(); o == nil || o.Verdict != model.VerdictBorderline || model.RoundChance(o.OOMChance) != 0.1 {
					t.Fatalf("the best offer is %+v, want a borderline V100 at about 10%%", o)
				}
				view := m.View().Content
				checkFits(t, view, sz[0], sz[1])
				text := ansi.Strip(view)
				if sz[0] == 80 {
					for _, w := range tc.want {
						if !strings.Contains(text, w) {
							t.Errorf("the compact panel lacks %q:\n%s", w, text)
						}
					}
					if strings.Count(text, "~1×v100-16gb") != 2 {
						t.Errorf("want the best and the next offer marked \"~\":\n%s", text)
					}
				}
				golden.RequireEqual(t, []byte(text))
			})
		}
	}
}
