package cli

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// TestCatalogProviders (a new user's walk: catalog providers was exit 2,
// "want gpus, instances, models or update"): one row per provider with
// its instance types, offers (region prices), regions, newest price,
// origins and whether it is a marketplace, in a table, --json and -o csv;
// an overlay's provider is listed with its file.
func TestCatalogProviders(t *testing.T) {
	code, out, errs := runCLI(t, "catalog", "providers")
	if code != 0 || !strings.Contains(out, "verda") || !strings.Contains(out, "marketplace") || !strings.Contains(out, " providers: ") {
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
	if code != 0 || !strings.HasPrefix(out, "provider,instance_types,offers,regions,marketplace,as_of,origins,currency,regions_source,retired\n") ||
		!strings.Contains(out, "alibaba,3,3,3,false,2026-12-01,"+p+",CNY,\"Alibaba Cloud") {
		t.Errorf("-o csv with an overlay: exit %d:\n%s", code, out)
	}
	if code, _, errs := runCLI(t, "catalog", "provider"); code != 2 || !strings.Contains(errs, `did you mean "providers"?`) {
		t.Errorf("catalog provider: exit %d, stderr %q", code, errs)
	}
}

// TestCatalogProvidersRetired (a new user's walk: cudo was listed with
// its 117 types and nothing saying all of them are retired, and the
// footer's 23 providers read against the README's 18 and the
// marketplaces): a provider whose every type is retired says so, in the
// table as offers names a retired type, in --json and -o csv as offers'
// retired field; the footer counts the live providers, the marketplaces
// and the retired apart.
func TestCatalogProvidersRetired(t *testing.T) {
	code, out, errs := runCLI(t, "catalog", "providers")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !regexp.MustCompile(`(?m)^cudo \(retired 2026-03-31\) +117 `).MatchString(out) {
		t.Errorf("no cudo row marked retired:\n%s", out)
	}
	if regexp.MustCompile(`(?m)^aws \(retired`).MatchString(out) {
		t.Errorf("aws marked retired:\n%s", out)
	}
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	live := 0
	for _, p := range cat.OfferedProviders() {
		if !slices.Contains(model.MarketplaceProviders, p) {
			live++
		}
	}
	want := fmt.Sprintf(": %d live, %d marketplaces, 1 retired (cudo); offers are", live, len(model.MarketplaceProviders))
	if !strings.Contains(out, want) {
		t.Errorf("footer: want %q in\n%s", want, out)
	}
	var rows []struct {
		Provider, Retired string
	}
	code, out, _ = runCLI(t, "catalog", "providers", "--json")
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil {
		t.Fatalf("--json: exit %d", code)
	}
	for _, r := range rows {
		if want := map[bool]string{true: "2026-03-31"}[r.Provider == "cudo"]; r.Retired != want {
			t.Errorf("--json %s: retired %q, want %q", r.Provider, r.Retired, want)
		}
	}
	code, out, _ = runCLI(t, "--lang", "zh-CN", "catalog", "providers")
	if code != 0 || !strings.Contains(out, "cudo（已于 2026-03-31 下线）") || !strings.Contains(out, fmt.Sprintf("：在售 %d 家，算力市场 %d 家，已下线 1 家（cudo）；", live, len(model.MarketplaceProviders))) {
		t.Errorf("zh-CN: exit %d:\n%s", code, out)
	}
}
