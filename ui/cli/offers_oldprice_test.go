package cli

import (
	"encoding/json"
	"fmt"
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

// TestOffersGroupLimitCounts (a new user's walk): with --group-by and
// --limit, a group of 6 was headed "5 offers" with the 5 rows' price
// range. The header says "5 of 6 offers shown" and the JSON group has
// total 6 beside count 5; a group --limit leaves whole keeps its header.
func TestOffersGroupLimitCounts(t *testing.T) {
	type groups struct {
		Groups []struct {
			Key          string `json:"key"`
			Count, Total int
		} `json:"groups"`
	}
	args := []string{"offers", "H100:8", "--group-by", "provider"}
	all, _ := runCLIJSON[groups](t, args, "--json")
	big, small := "", ""
	n := 0
	for _, g := range all.Groups {
		if g.Count > n {
			big, n = g.Key, g.Count
		}
		if g.Count == 1 && small == "" {
			small = g.Key
		}
	}
	if n < 2 || small == "" {
		t.Fatalf("want a group of several offers and one of one (the case's premise): %+v", all.Groups)
	}
	limit := fmt.Sprint(n - 1)
	code, out, errs := runCLI(t, append(args, "--limit", limit)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := fmt.Sprintf("%s: %d of %d offers shown,", big, n-1, n); !strings.Contains(out, want) || !strings.Contains(out, "\n"+small+": 1 offer,") {
		t.Errorf("want %q and \"%s: 1 offer\":\n%s", want, small, out)
	}
	lim, _ := runCLIJSON[groups](t, args, "--limit", limit, "--json")
	for _, g := range lim.Groups {
		if g.Key == big && (g.Count != n-1 || g.Total != n) || g.Key == small && (g.Count != 1 || g.Total != 1) {
			t.Errorf("group %s: count %d total %d", g.Key, g.Count, g.Total)
		}
	}
}
