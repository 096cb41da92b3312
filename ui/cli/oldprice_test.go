package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// oldPriceCatalog has three H100 types dated as the embedded catalog's
// were on 2026-12-06: DigitalOcean's price of 2026-05-28 (192 days before
// the catalog's date), Lambda's of 2026-12-02 and AWS's of 2026-11-30.
// doUSD is DigitalOcean's price: below the others it is the best offer.
func oldPriceCatalog(doUSD float64) func() *model.Catalog {
	return func() *model.Catalog {
		c := netCatalog(false)
		c.Instances = []model.Instance{
			{Provider: "do", Type: "gpu-h100x1-80gb", GPU: "h100-sxm", GPUCount: 1, VCPUs: 20, MemoryGiB: 240,
				Source: "test", AsOf: "2026-05-28", Prices: []model.RegionPrice{{Region: "tor1", OnDemandUSD: doUSD}}},
			{Provider: "lambda", Type: "gpu_1x_h100_sxm5", GPU: "h100-sxm", GPUCount: 1, VCPUs: 26, MemoryGiB: 225,
				Source: "test", AsOf: "2026-12-02", Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 3.49}}},
			{Provider: "aws", Type: "p5.4xlarge", GPU: "h100-sxm", GPUCount: 1, VCPUs: 16, MemoryGiB: 256,
				Source: "test", AsOf: "2026-11-30", Prices: []model.RegionPrice{{Region: "us-east-1", OnDemandUSD: 6.88}}},
		}
		c.AsOf = "2026-12-06" // the newest as_of of a GPU entry, as data.Load dates the catalog
		c.Index()
		return c
	}
}

// TestRecommendSaysOldPrice (staleprice): a price months older than the
// catalog is flagged where the user acts on it — under "best:" when the
// best offer has it, under the table when another row shown does — and
// each offer's price_age_days in --json counts the days from its as_of
// to the catalog's date, so the figure does not depend on the day the
// command runs. Failing before: the table and the best line gave
// DigitalOcean's $3.39 of 2026-05-28 as they gave the others', and the
// JSON had only as_of.
func TestRecommendSaysOldPrice(t *testing.T) {
	job := []string{"recommend", "--params", "1B", "--task", "finetune", "--gpus", "1"}
	const bestNote = "! price as of 2026-05-28, 192 days older than the catalog (2026-12-06): check it before renting"
	t.Run("best", func(t *testing.T) {
		code, out, errs := runCatalogCLI(t, oldPriceCatalog(3.39), job...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		best := out[strings.Index(out, "best:"):]
		if !strings.Contains(best, bestNote) {
			t.Errorf("the best line does not say its price is old; want %q in:\n%s", bestNote, out)
		}
		if strings.Contains(out[:strings.Index(out, "best:")], "older than the catalog") {
			t.Errorf("the table's note repeats the best line's:\n%s", out)
		}
	})
	t.Run("row", func(t *testing.T) {
		code, out, errs := runCatalogCLI(t, oldPriceCatalog(4.50), job...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		const note = "do gpu-h100x1-80gb: price as of 2026-05-28, 192 days older than the catalog (2026-12-06): check it before renting"
		at := strings.Index(out, "best:")
		if !strings.Contains(out[:at], note) {
			t.Errorf("the table does not say a row's price is old; want %q in:\n%s", note, out)
		}
		if strings.Contains(out[at:], "older than the catalog") {
			t.Errorf("the best line (lambda, fresh) is said to be old:\n%s", out)
		}
	})
	t.Run("json", func(t *testing.T) {
		code, out, errs := runCatalogCLI(t, oldPriceCatalog(3.39), append(job, "--json")...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var d struct {
			Offers []map[string]any `json:"offers"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		want := map[string]float64{"do": 192, "lambda": 4, "aws": 6}
		if len(d.Offers) != len(want) {
			t.Fatalf("%d offers, want %d", len(d.Offers), len(want))
		}
		for _, o := range d.Offers {
			p := o["provider"].(string)
			if got, ok := o["price_age_days"].(float64); !ok || got != want[p] {
				t.Errorf("%s: price_age_days = %v, want %v (as_of %v, catalog 2026-12-06)", p, o["price_age_days"], want[p], o["as_of"])
			}
		}
	})
}
