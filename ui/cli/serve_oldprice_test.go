package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// TestServeRecommendSaysOldPrice: serving's recommend flags a price
// months older than the catalog as training's does
// (TestRecommendSaysOldPrice): under "best:" when the best offer has it,
// under the table when another row shown does, and each offer's
// price_age_days in --json counts the days from its as_of to the
// catalog's date. A new user's walk: "best: do gpu-mi300x8-1536gb in
// atl1: $15.92 per hour", a price 192 days old, said nothing, and the
// JSON had only as_of. Failing before: no line, no price_age_days.
func TestServeRecommendSaysOldPrice(t *testing.T) {
	embedded, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	// oldPriceCatalog's three H100 types with the embedded models.
	oldPriceCatalog := func(doUSD float64) func() *model.Catalog {
		return func() *model.Catalog {
			c := oldPriceCatalog(doUSD)()
			c.Models = embedded.Models
			c.Index()
			return c
		}
	}
	job := []string{"recommend", "--model", "llama-3.1-8b", "--task", "serve", "--concurrency", "4", "--limit", "0"}
	const bestNote = "! price as of 2026-05-28, 192 days older than the catalog (2026-12-06): check it before renting"
	t.Run("best", func(t *testing.T) {
		code, out, errs := runCatalogCLI(t, oldPriceCatalog(2.39), job...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		at := strings.Index(out, "best:")
		if at < 0 || !strings.Contains(out[at:], "do gpu-h100x1-80gb") || !strings.Contains(out[at:], bestNote) {
			t.Fatalf("the best line (do, $2.39) does not say its price is old; want %q in:\n%s", bestNote, out)
		}
		if strings.Contains(out[:at], "older than the catalog") {
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
		if at < 0 || !strings.Contains(out[:at], note) {
			t.Errorf("the table does not say a row's price is old; want %q in:\n%s", note, out)
		}
		if at >= 0 && strings.Contains(out[at:], "older than the catalog") {
			t.Errorf("the best line (lambda, fresh) is said to be old:\n%s", out)
		}
	})
	t.Run("json", func(t *testing.T) {
		code, out, errs := runCatalogCLI(t, oldPriceCatalog(2.39), append(job, "--json")...)
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
			t.Fatalf("%d offers, want %d:\n%s", len(d.Offers), len(want), out)
		}
		for _, o := range d.Offers {
			p := o["provider"].(string)
			if got, ok := o["price_age_days"].(float64); !ok || got != want[p] {
				t.Errorf("%s: price_age_days = %v, want %v (as_of %v, catalog 2026-12-06)", p, o["price_age_days"], want[p], o["as_of"])
			}
		}
	})
}
