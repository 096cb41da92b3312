package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// renderMarketWidth renders the fixture catalog's offers, flat and
// grouped by GPU at spot prices, on a terminal width cells wide.
func renderMarketWidth(t *testing.T, p *i18n.Printer, width int) string {
	t.Helper()
	cat := leakCatalog(t)
	r := &Renderer{Profile: colorprofile.NoTTY, Dark: true, Lang: p}
	var b bytes.Buffer
	for _, q := range []market.Query{{}, {GroupBy: market.GroupGPU, Pricing: model.Spot}, {Sort: market.ByRAM}, {GroupBy: market.GroupRegion, Sort: market.ByGPUPrice}} {
		res, err := market.Browse(cat, q)
		if err != nil {
			t.Fatal(err)
		}
		m := MarketJSON{MarketListJSON: NewMarketListJSON(&res), NeedsRate: NeedsRate(cat, nil, nil),
			Prices: NewProvenanceJSON(market.CatalogProvenance(cat, ""))}
		if err := WriteMarket(&b, r, &res, m, width); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestMarketFitsWidth: on an 80- or 120-column terminal the offers
// tables fit, in English and Chinese, by hiding columns a line names
// (goldens; go test -update rewrites them); the --sort ram table keeps its
// RAM column, the grouped by region and sorted by $/GPU-h both; no price
// is cut. At 50 columns the instance types are cut
// too (the GPU keys stay whole) and the --sort ram table, which cannot
// lose its RAM column, is wider than the terminal.
func TestMarketFitsWidth(t *testing.T) {
	for _, lang := range []string{"en", "zh-CN"} {
		for _, width := range []int{50, 80, 120} {
			t.Run(fmt.Sprintf("%s-%d", lang, width), func(t *testing.T) {
				var p *i18n.Printer
				if lang == "zh-CN" {
					p = i18n.New(language.SimplifiedChinese)
				}
				out := renderMarketWidth(t, p, width)
				golden.RequireEqual(t, out)
				if p != nil { // the Chinese tables and the hidden line leak no English
					allow := leakAllowlist(leakCatalog(t))
					allow.Add("nvlink nvswitch pcie wide")
					if leaks := i18n.Leaks(out, allow); len(leaks) > 0 {
						t.Errorf("English in the Chinese offers: %s", strings.Join(leaks, " "))
					}
				}
				// Every line of a table is as wide as its rule (TestChineseTablesAlign).
				for _, l := range strings.Split(out, "\n") {
					if strings.Trim(l, "─") == "" && l != "" && cellWidth(l) > width && width >= 80 {
						t.Errorf("a table %d cells wide, over %d", cellWidth(l), width)
					}
				}
				if !strings.Contains(out, "-o wide") {
					t.Error("no line names the hidden columns")
				}
				res, err := market.Browse(leakCatalog(t), market.Query{})
				if err != nil {
					t.Fatal(err)
				}
				for i := range res.Rows {
					if usd := USDPerHour(res.Rows[i].USDPerHour); !strings.Contains(out, usd+" ") {
						t.Errorf("%s/%s: price %s not shown whole", res.Rows[i].Instance.Provider, res.Rows[i].Instance.Type, usd)
					}
				}
			})
		}
	}
}
