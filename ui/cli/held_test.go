package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// fakeH100 is issue #29's overlay: lambda's 8× H100 SXM5 at $1.00/h in
// us-east-1, far below any H100's floor: the guards hold it.
const fakeH100 = `schema_version = 1
[[instance]]
provider = "lambda"
type = "gpu_8x_h100_sxm5"
prices = [{ region = "us-east-1", on_demand = 1.00 }]
`

// TestOffersHeldNotRanked: the held $1.00 is not listed by gpuplan offers
// (it ranked first, issue #29); --all lists it last, marked in the table,
// CSV, Markdown and JSON (the table and Markdown mark the overlay's price
// "*" too); --trust-overlay ranks it first, still marked.
func TestOffersHeldNotRanked(t *testing.T) {
	args := []string{"offers", "--providers", "lambda", "--sort", "gpu-price"}
	type row struct {
		InstanceType string  `json:"instance_type"`
		USDPerHour   float64 `json:"usd_per_hour"`
		Held         *bool   `json:"held"`
	}
	rows := func(extra ...string) []row {
		t.Helper()
		code, out, errs, _ := runWithCatalogDTrust(t, fakeH100, append(append(append([]string{}, args...), "--json"), extra...)...)
		var v struct{ Rows []row }
		if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || len(v.Rows) == 0 {
			t.Fatalf("exit %d, %v: %s%s", code, err, out, errs)
		}
		return v.Rows
	}
	for _, r := range rows() {
		if r.USDPerHour == 1 {
			t.Errorf("the held $1.00 is listed without --all: %+v", r)
		}
		if r.Held == nil || *r.Held {
			t.Errorf("row %+v: want held false", r)
		}
	}
	all := rows("--all")
	if last := all[len(all)-1]; last.USDPerHour != 1 || last.Held == nil || !*last.Held {
		t.Errorf("--all: last row %+v, want the held $1.00 marked held", last)
	}
	if first := rows("--trust-overlay")[0]; first.USDPerHour != 1 || !*first.Held {
		t.Errorf("--trust-overlay: first row %+v, want the $1.00 ranked first, marked held", first)
	}
	for _, format := range []string{"table", "markdown", "csv"} {
		_, out, _, _ := runWithCatalogDTrust(t, fakeH100, append(append([]string{}, args...), "--all", "-o", format)...)
		var line string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "gpu_8x_h100_sxm5") && (strings.Contains(l, "$1.00") || strings.Contains(l, ",1,") || strings.Contains(l, "$1* ")) {
				line = l
			}
		}
		mark, ok := "(held: looks fake)", strings.Contains(line, "(held: looks fake)")
		if format == "csv" {
			mark, ok = ",true (the held column, last)", strings.HasSuffix(strings.TrimSpace(line), ",true")
		}
		if !ok {
			t.Errorf("-o %s: the held row %q lacks %q:\n%s", format, line, mark, out)
		}
		// The table and the Markdown mark the overlay's price (re-attack F2).
		if price := map[string]string{"table": "$1.00*", "markdown": "| $1* |"}[format]; price != "" && !strings.Contains(line, price) {
			t.Errorf("-o %s: the held row %q lacks the overlay mark %q", format, line, price)
		}
	}
}

// TestExportNamesHeldPrice: export of the type in the one region whose
// price the guards held names that price and --trust-overlay, where it said
// "no instance in the catalog matches providers lambda, regions us-east-1"
// (issue #29); trusted, it exports.
//
// The region is one the embedded catalog does not price the type in: where
// it does, its price stands in for the held one (model.HeldPricesEmbedded)
// and the export goes ahead on it.
func TestExportNamesHeldPrice(t *testing.T) {
	overlay := strings.Replace(fakeH100, `"us-east-1"`, `"us-east-9"`, 1)
	args := []string{"export", "--model", "llama-3.1-8b", "--task", "qlora", "--instance", "lambda/gpu_8x_h100_sxm5", "--region", "us-east-9"}
	code, out, errs, path := runWithCatalogDTrust(t, overlay, args...)
	want := "lambda/gpu_8x_h100_sxm5 us-east-9: the on-demand price $1.00/h from " + path + " looks fake or mistyped, so the price guards held it (the load's warning says why); pass --trust-overlay to use it"
	if code != ExitUsage || !strings.Contains(errs, want) || out != "" {
		t.Errorf("exit %d, stderr lacks %q:\n%s%s", code, want, errs, out)
	}
	if code, _, errs, _ := runWithCatalogDTrust(t, overlay, append(args, "--trust-overlay")...); code != 0 {
		t.Errorf("--trust-overlay: exit %d: %s", code, errs)
	}
	args[len(args)-1] = "us-east-1" // the catalog's price there stands in for the held one
	if code, out, errs, _ := runWithCatalogDTrust(t, fakeH100, args...); code != 0 || out == "" || !strings.Contains(errs, "the embedded catalog's price for that type and region is used instead") {
		t.Errorf("us-east-1: exit %d, stderr %q; want the export on the catalog's price", code, errs)
	}
}

// An on-demand price held for being below the region's spot price showed
// as "—/h" (attack round 13: nebius at $0.05 where the catalog's spot is
// higher), then was named and refused; the catalog prices the type in
// that region, so its price stands in for the held one (walk: a held
// overlay price hid the catalog's row), said in the load's line, and the
// export goes ahead on it.
func TestExportNamesHeldPriceBelowSpot(t *testing.T) {
	neg := "schema_version = 1\n[[instance]]\nprovider = \"nebius\"\ntype = \"gpu-h100-sxm_1gpu-16vcpu-200gb\"\nsource = \"negotiated\"\nas_of = 2026-11-30\nprices = [{ region = \"eu-north1\", on_demand = 0.05 }]\n"
	code, out, errs, path := runWithCatalogDTrust(t, neg, "export", "--model", "llama-3.1-8b", "--task", "qlora", "--instance", "nebius/gpu-h100-sxm_1gpu-16vcpu-200gb", "--region", "eu-north1", "--format", "skypilot")
	want := "catalog " + path + ": 1 region price looks fake or mistyped (the lines below say why): the embedded catalog's price for that type and region is used instead"
	if code != 0 || !strings.Contains(errs, want) || !strings.Contains(out, "eu-north1") {
		t.Errorf("exit %d, stderr lacks %q:\n%s", code, want, errs)
	}
}
