package tui

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestBrowseMarksOverlayPrices: the market browser marks a price an overlay
// set with "*" and names the overlay of the selected row under the list,
// as the CLI's offers table does under its own (attack 7, M2: the browser
// showed overlay prices bare). The file name is escaped (termsafe).
func TestBrowseMarksOverlayPrices(t *testing.T) {
	cat := testCatalog(t)
	for i := range cat.Instances {
		if in := &cat.Instances[i]; in.Type == "gpu_1x_a100_sxm4" {
			in.Prices = append(in.Prices, model.RegionPrice{Region: "europe-central-1", OnDemandUSD: 1.10,
				Patch: &model.PricePatch{Source: "our deal", Origin: "neg\x1b[2J.toml", AsOf: "2026-12-01"}})
		}
	}
	m := drive(t, start(t, newTestApp(t, cat, Options{}), size(160, 40)), msgs(ctrlB, typed("a100-40gb"))...)
	text := screenText(m)
	for _, want := range []string{"$1.10*", `* price from overlay neg\x1b[2J.toml (our deal, as of 2026-12-01)`} {
		if !strings.Contains(text, want) {
			t.Errorf("the browser lacks %q:\n%s", want, text)
		}
	}
}
