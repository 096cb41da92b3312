package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestOffersSaysOldPrice (a new user's walk): offers listed DigitalOcean's
// 2026-05-28 price first, under a footer of "prices: embedded as of
// 2026-12-02", with no word of its age, where recommend says it. The
// table says it under it, in recommend's words, and --json gives each
// row's price_age_days.
func TestOffersSaysOldPrice(t *testing.T) {
	const line = "do gpu-h100x1-80gb: price as of 2026-05-28, 192 days older than the catalog (2026-12-06): check it before renting"
	code, out, errs := runCatalogCLI(t, oldPriceCatalog(3.39), "offers", "H100")
	if code != 0 || !strings.Contains(out, line) {
		t.Errorf("offers H100: exit %d, stdout %q, stderr %q; want the line %q", code, out, errs, line)
	}
	code, out, _ = runCatalogCLI(t, oldPriceCatalog(3.39), "offers", "H100", "--providers", "aws,lambda")
	if code != 0 || strings.Contains(out, "older than the catalog") {
		t.Errorf("offers without the old row: exit %d, says an old price: %q", code, out)
	}
	code, out, errs = runCatalogCLI(t, oldPriceCatalog(3.39), "offers", "H100", "--json")
	var doc struct {
		Rows []struct {
			Provider     string `json:"provider"`
			PriceAgeDays *int   `json:"price_age_days"`
		} `json:"rows"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Rows) != 3 {
		t.Fatalf("--json: exit %d, %s", code, errs)
	}
	want := map[string]int{"do": 192, "lambda": 4, "aws": 6}
	for _, r := range doc.Rows {
		if r.PriceAgeDays == nil || *r.PriceAgeDays != want[r.Provider] {
			t.Errorf("%s: price_age_days %v, want %d", r.Provider, r.PriceAgeDays, want[r.Provider])
		}
	}
}
