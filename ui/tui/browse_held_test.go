package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestBrowseHeldNotPicked: an overlay's $0.10 for lambda's 1× A100 40GB in
// europe-central-1 that the guards held (issue #29) is not listed, nor hides
// the type's $1.29 rows; --all lists it last, and enter on it narrows no
// search: the browser stays open and says why.
func TestBrowseHeldNotPicked(t *testing.T) {
	cat := testCatalog(t)
	for i := range cat.Instances {
		if in := &cat.Instances[i]; in.Type == "gpu_1x_a100_sxm4" {
			in.Prices = append(in.Prices, model.RegionPrice{Region: "europe-central-1", OnDemandUSD: 0.10, Held: true,
				Patch: &model.PricePatch{Source: "b", Origin: "b.toml"}})
		}
	}
	base := start(t, newTestApp(t, cat, Options{}), size(120, 40))

	m := drive(t, base, msgs(ctrlB, typed("a100-40gb"), enter, enter)...)
	if m.screen != screenWizard || !slices.Equal(m.a.Regions, []string{"us-east-1", "us-west-1"}) {
		t.Errorf("enter on the first row: screen %v, regions %v; want the questions, the $1.29 rows' [us-east-1 us-west-1]", m.screen, m.a.Regions)
	}

	m = drive(t, base, msgs(ctrlB, typed("a100-40gb --all"))...)
	rows := shownRows(&m.browse)
	if len(rows) == 0 || rows[len(rows)-1] != "lambda gpu_1x_a100_sxm4 europe-central-1 0.1" {
		t.Fatalf("--all: rows %q, want the held $0.10 last", rows)
	}
	for range len(rows) - 1 {
		m = drive(t, m, down)
	}
	before := m.a.key()
	m = drive(t, m, enter)
	if m.screen != screenBrowse || m.a.key() != before || !strings.Contains(screenText(m), "looks fake") {
		t.Errorf("enter on the held row: screen %v, answers changed %v; want the browser, unchanged, saying why:\n%s",
			m.screen, m.a.key() != before, screenText(m))
	}
}

// TestBrowseHeldBesideEmbedded: the browser shares the market's rows with
// offers: an overlay's held $0.10 over the catalog's us-east-1 price, put
// back by the load (model.Catalog.UseEmbeddedForHeld), leaves the $1.29
// row as it was, and --all lists the held price too, last (it was left
// out: the load had put the catalog's price in its place).
func TestBrowseHeldBesideEmbedded(t *testing.T) {
	cat := testCatalog(t)
	for i := range cat.Instances {
		if in := &cat.Instances[i]; in.Type == "gpu_1x_a100_sxm4" {
			in.Prices = slices.Clone(in.Prices)
			for j := range in.Prices {
				if rp := &in.Prices[j]; rp.Region == "us-east-1" {
					emb := *rp
					*rp = model.RegionPrice{Region: "us-east-1", OnDemandUSD: 0.10, Held: true, Beside: &emb,
						Patch: &model.PricePatch{Source: "b", Origin: "b.toml"}}
				}
			}
		}
	}
	if n := cat.UseEmbeddedForHeld(); n != 1 {
		t.Fatalf("UseEmbeddedForHeld put back %d prices, want 1", n)
	}
	base := start(t, newTestApp(t, cat, Options{}), size(120, 40))
	m := drive(t, base, msgs(ctrlB, typed("a100-40gb --all-regions"))...)
	plain := shownRows(&m.browse)
	m = drive(t, base, msgs(ctrlB, typed("a100-40gb --all-regions --all"))...)
	all := shownRows(&m.browse)
	if len(all) != len(plain)+1 || !slices.Equal(all[:len(plain)], plain) || all[len(all)-1] != "lambda gpu_1x_a100_sxm4 us-east-1 0.1" {
		t.Errorf("--all rows %q; want the rows without it %q, then the held $0.10 last", all, plain)
	}
	if !slices.ContainsFunc(plain, func(r string) bool { return strings.HasPrefix(r, "lambda gpu_1x_a100_sxm4 us-east-1") }) {
		t.Errorf("rows %q; want the catalog's us-east-1 price listed", plain)
	}
}
