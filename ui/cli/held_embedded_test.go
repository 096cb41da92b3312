package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestHeldOverlayKeepsEmbeddedRow (a new user's walk): an overlay's
// mistyped price (0.05 for Nebius's 1×H100, whose catalog price is
// $2.95) was held and hid the catalog's row: offers H100:1 --providers
// nebius listed 0 offers. The catalog's price stands in for it, said in
// the overlay's warning line; --trust-overlay ranks the file's.
func TestHeldOverlayKeepsEmbeddedRow(t *testing.T) {
	const overlay = `schema_version = 1

[[instance]]
provider = "nebius"
type = "gpu-h100-sxm_1gpu-16vcpu-200gb"
source = "a typo"
prices = [{ region = "eu-north1", on_demand = 0.05 }]
`
	type doc struct {
		Rows []struct {
			USDPerHour float64 `json:"usd_per_hour"`
			Origin     string  `json:"origin"`
			Held       bool    `json:"held"`
		} `json:"rows"`
	}
	code, out, errs, _ := runWithCatalogDTrust(t, overlay, "offers", "H100:1", "--providers", "nebius", "--json")
	var d doc
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil || len(d.Rows) != 1 || d.Rows[0].USDPerHour != 2.95 || d.Rows[0].Origin != "embedded" || d.Rows[0].Held {
		t.Fatalf("exit %d, rows %+v, stderr %q; want the catalog's $2.95 row", code, d.Rows, errs)
	}
	if !strings.Contains(errs, "the embedded catalog's price for that type and region is used instead") {
		t.Errorf("stderr %q; want the line saying the catalog's price is used", errs)
	}
	code, out, errs, _ = runWithCatalogD(t, overlay, "offers", "H100:1", "--providers", "nebius", "--json")
	// Trusted, the file's price is the row's (below the region's spot
	// price it is no on-demand price, so it is not listed at all): the
	// catalog's does not stand in.
	d = doc{}
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil || len(d.Rows) == 1 && d.Rows[0].USDPerHour == 2.95 {
		t.Errorf("--trust-overlay: exit %d, rows %+v, stderr %q; want the file's price, not the catalog's", code, d.Rows, errs)
	}
}

// TestHeldAllKeepsEmbeddedRow: offers --all listed fewer offers than
// offers (0 where offers listed the catalog's $2.95; a SkyPilot CSV's held
// us-east-1 row took the catalog's us-east-1 row with it): --all kept the
// held overlay price in the catalog's place and listed neither. It lists
// a superset: the catalog's price ranked as without --all, the held one
// last, marked.
func TestHeldAllKeepsEmbeddedRow(t *testing.T) {
	const overlay = `schema_version = 1

[[instance]]
provider = "nebius"
type = "gpu-h100-sxm_1gpu-16vcpu-200gb"
source = "a typo"
prices = [{ region = "eu-north1", on_demand = 0.05, spot = 0.04 }]
`
	type doc struct {
		Rows []struct {
			USDPerHour float64 `json:"usd_per_hour"`
			Origin     string  `json:"origin"`
			Held       bool    `json:"held"`
		} `json:"rows"`
	}
	code, out, errs, _ := runWithCatalogDTrust(t, overlay, "offers", "H100:1", "--providers", "nebius", "--all", "--json")
	var d doc
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil || len(d.Rows) != 2 {
		t.Fatalf("exit %d, rows %+v, stderr %q; want the catalog's $2.95 row and the held $0.05", code, d.Rows, errs)
	}
	if r := d.Rows[0]; r.USDPerHour != 2.95 || r.Origin != "embedded" || r.Held {
		t.Errorf("first row %+v; want the catalog's $2.95, not held", r)
	}
	if r := d.Rows[1]; r.USDPerHour != 0.05 || !r.Held {
		t.Errorf("last row %+v; want the file's $0.05, held", r)
	}
}
