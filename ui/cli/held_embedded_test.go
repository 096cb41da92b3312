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
	// Trusted, the file's price is the row's (the catalog's spot above it
	// is dropped: TestTrustedOnDemandBelowCatalogSpot): the catalog's does
	// not stand in.
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

// TestTrustedOnDemandBelowCatalogSpot: a trusted overlay's on-demand $1.20
// for Nebius's 1×H100 in eu-north1, below the catalog's $1.25 spot there,
// left the type out of recommend (an on-demand price below its spot is
// never ranked, and the merge had kept the catalog's spot beside the
// file's on-demand), while stderr said it was ranked as --trust-overlay
// asks. The older spot is dropped with a line saying so; untrusted, the
// catalog's row (its spot too) stands in as before.
func TestTrustedOnDemandBelowCatalogSpot(t *testing.T) {
	const overlay = `schema_version = 1

[[instance]]
provider = "nebius"
type = "gpu-h100-sxm_1gpu-16vcpu-200gb"
source = "our deal"
prices = [{ region = "eu-north1", on_demand = 1.20 }]
`
	type doc struct {
		Rows []struct {
			USDPerHour float64  `json:"usd_per_hour"`
			Spot       *float64 `json:"spot_usd_per_hour"`
			Held       bool     `json:"held"`
		} `json:"rows"`
	}
	code, out, errs, _ := runWithCatalogD(t, overlay, "offers", "H100:1", "--providers", "nebius", "--json")
	var d doc
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil || len(d.Rows) != 1 || d.Rows[0].USDPerHour != 1.2 || d.Rows[0].Spot != nil && *d.Rows[0].Spot != 0 {
		t.Fatalf("--trust-overlay: exit %d, rows %+v, stderr %q; want the file's $1.20, spot unknown", code, d.Rows, errs)
	}
	if !strings.Contains(errs, "nebius/gpu-h100-sxm_1gpu-16vcpu-200gb eu-north1 (spot $1.25 > on-demand $1.20)") || strings.Contains(errs, "is below spot") {
		t.Errorf("stderr %q; want the line saying the catalog's spot is dropped, no below-spot finding", errs)
	}
	code, out, errs, _ = runWithCatalogD(t, overlay, "recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--providers", "nebius", "--gpu", "h100-sxm")
	if code != 0 || !strings.Contains(out, "gpu-h100-sxm_1gpu-16vcpu-200gb") || !strings.Contains(out, "$1.20") {
		t.Errorf("recommend --trust-overlay: exit %d, want the 1-GPU host at $1.20:\n%s%s", code, out, errs)
	}
	code, out, errs, _ = runWithCatalogDTrust(t, overlay, "offers", "H100:1", "--providers", "nebius", "--json")
	d = doc{}
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil || len(d.Rows) != 1 || d.Rows[0].USDPerHour != 2.95 || d.Rows[0].Spot == nil || *d.Rows[0].Spot != 1.25 {
		t.Errorf("untrusted: exit %d, rows %+v, stderr %q; want the catalog's $2.95 with its $1.25 spot", code, d.Rows, errs)
	}
	// Untrusted, the catalog's row stands in with its spot: no line may say
	// that spot was dropped (new-user walk, 2026-12-06: it did).
	if strings.Contains(errs, "spot price is dropped") || strings.Contains(errs, "spot $1.25 >") {
		t.Errorf("untrusted: stderr %q says the spot is dropped; the catalog's $1.25 stands", errs)
	}
}
