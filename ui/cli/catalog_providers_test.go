package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCatalogProviders (a new user's walk: catalog providers was exit 2,
// "want gpus, instances, models or update"): one row per provider with
// its instance types, offers (region prices), regions, newest price,
// origins and whether it is a marketplace, in a table, --json and -o csv;
// an overlay's provider is listed with its file.
func TestCatalogProviders(t *testing.T) {
	code, out, errs := runCLI(t, "catalog", "providers")
	if code != 0 || !strings.Contains(out, "verda") || !strings.Contains(out, "marketplace") || !strings.Contains(out, " providers; offers are region prices") {
		t.Fatalf("table: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	var rows []struct {
		Provider      string   `json:"provider"`
		InstanceTypes int      `json:"instance_types"`
		Offers        int      `json:"offers"`
		Regions       int      `json:"regions"`
		Marketplace   bool     `json:"marketplace"`
		AsOf          string   `json:"as_of"`
		Origins       []string `json:"origins"`
		Currency      string   `json:"currency"`
	}
	code, out, errs = runCLI(t, "catalog", "providers", "--json")
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) < 10 {
		t.Fatalf("--json: exit %d, %d rows, stderr %q", code, len(rows), errs)
	}
	for _, r := range rows {
		if r.InstanceTypes == 0 || r.Offers < r.InstanceTypes/2 || r.Regions == 0 || r.AsOf == "" || len(r.Origins) == 0 || r.Currency == "" {
			t.Errorf("%+v: want every count, a date, an origin and a currency", r)
		}
		if want := r.Provider == "vast" || r.Provider == "lium"; (r.Provider == "vast" || r.Provider == "lium" || r.Provider == "aws") && r.Marketplace != want {
			t.Errorf("%s: marketplace %v", r.Provider, r.Marketplace)
		}
	}
	p := writeFile(t, "alibaba.toml", pricedExample(t, "alibaba.toml", "", ""))
	code, out, _ = runCLI(t, "catalog", "providers", "--catalog", p, "-o", "csv")
	if code != 0 || !strings.HasPrefix(out, "provider,instance_types,offers,regions,marketplace,as_of,origins,currency,regions_source\n") ||
		!strings.Contains(out, "alibaba,3,3,3,false,2026-12-01,"+p+",CNY,\"Alibaba Cloud") {
		t.Errorf("-o csv with an overlay: exit %d:\n%s", code, out)
	}
	if code, _, errs := runCLI(t, "catalog", "provider"); code != 2 || !strings.Contains(errs, `did you mean "providers"?`) {
		t.Errorf("catalog provider: exit %d, stderr %q", code, errs)
	}
}
