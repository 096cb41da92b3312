package data

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestStaleUpdate: a `catalog update` file older than the embedded
// catalog (a newer gpuplan installed after the fetch) no longer overrides
// its newer prices: aws g5.xlarge us-east-1 read $0.95 as of 2026-10-01
// over the embedded $1.006 of 2026-11-30. The embedded price is used,
// with one warning naming the file (a new user's walk: it named none,
// and counted prices a hand-written overlay sets anyway, which it no
// longer counts); a newer update still wins; what the update adds (a
// type, a region) still applies; a hand-written overlay, a --catalog file
// and a folder that is both catalog update's and the user's always win.
func TestStaleUpdate(t *testing.T) {
	const (
		old   = "2026-10-01" // before the embedded g5.xlarge (2026-11-30)
		fresh = "2026-12-01" // after it
	)
	patch := func(asOf string, prices ...string) string {
		return fmt.Sprintf(`
[[instance]]
type = "g5.xlarge"
source = "test: a catalog update"
as_of = %s
prices = [%s]
`, asOf, strings.Join(prices, ", "))
	}
	price := func(region string, usd float64) string {
		return fmt.Sprintf("{ region = %q, on_demand = %v }", region, usd)
	}
	file := func(entries ...string) string {
		return "schema_version = 1\nprovider = \"aws\"\n" + strings.Join(entries, "")
	}
	newType := func(asOf string) string {
		return fmt.Sprintf(`
[[instance]]
type = "g5.sample"
gpu = "a10g"
gpu_count = 1
vcpus = 4
memory_gib = 16
source = "test: a type the update added"
as_of = %s
prices = [{ region = "us-east-1", on_demand = 1.10 }]
`, asOf)
	}
	// A type an old update added that this embedded catalog has, with the
	// fetch's host figures (8 vCPUs, where the catalog has 4).
	complete := func(asOf string) string {
		return fmt.Sprintf(`
[[instance]]
type = "g5.xlarge"
gpu = "a10g"
gpu_count = 1
vcpus = 8
memory_gib = 16
source = "test: a type the update added"
as_of = %s
prices = [{ region = "us-east-1", on_demand = 0.95 }]
`, asOf)
	}
	missing := func(since string) string {
		return fmt.Sprintf(`
[[instance]]
type = "g5.xlarge"
missing_since = %s
missing_source = "test: not in the latest fetch"
`, since)
	}
	g5 := func(t *testing.T, c *model.Catalog, typ string) *model.Instance {
		t.Helper()
		for i := range c.Instances {
			if in := &c.Instances[i]; in.Provider == "aws" && in.Type == typ {
				return in
			}
		}
		t.Fatalf("no aws %s", typ)
		return nil
	}
	// priceIs checks the on-demand price of aws typ in region and whether
	// an overlay (which) set it: "embedded", "update", "user" or "flag".
	priceIs := func(typ, region string, usd float64, which string) func(*testing.T, *model.Catalog) {
		return func(t *testing.T, c *model.Catalog) {
			t.Helper()
			in := g5(t, c, typ)
			_, origin, _ := in.RegionProvenance(region)
			got := "embedded"
			switch {
			case strings.Contains(origin, filepath.Join("data", "gpuplan")):
				got = "update"
			case strings.Contains(origin, filepath.Join("config", "gpuplan")):
				got = "user"
			case strings.Contains(origin, "flag"):
				got = "flag"
			}
			for _, rp := range in.Prices {
				if rp.Region == region {
					if rp.OnDemandUSD != usd || got != which {
						t.Errorf("%s %s: $%v from %s (%s), want $%v from %s", typ, region, rp.OnDemandUSD, got, origin, usd, which)
					}
					return
				}
			}
			t.Errorf("%s: no price in %s, want $%v", typ, region, usd)
		}
	}
	embeddedAsOf := sharedCatalog().AsOf
	tests := []struct {
		name                       string
		update, update2, user, flg string
		sameDir                    bool // XDG_DATA_HOME is XDG_CONFIG_HOME: the update folder is the user's
		warn                       string
		checks                     []func(*testing.T, *model.Catalog)
	}{
		{name: "older update price: the embedded one is used, with a warning naming the file",
			update: file(patch(old, price("us-east-1", 0.95))),
			warn:   "catalog update's prices for 1 offer in UPDATE (as of 2026-10-01) are older than this gpuplan's embedded catalog (" + embeddedAsOf + "): the embedded ones are used; run gpuplan catalog update to refresh, or delete the file",
			checks: []func(*testing.T, *model.Catalog){priceIs("g5.xlarge", "us-east-1", 1.006, "embedded")}},
		{name: "newer update price wins, no warning",
			update: file(patch(fresh, price("us-east-1", 0.95))),
			checks: []func(*testing.T, *model.Catalog){priceIs("g5.xlarge", "us-east-1", 0.95, "update")}},
		{name: "older update: its new region applies, its older region price does not",
			update: file(patch(old, price("us-east-1", 0.95), price("us-west-1", 1.2))),
			warn:   "catalog update's prices for 1 offer in UPDATE (as of 2026-10-01)",
			checks: []func(*testing.T, *model.Catalog){priceIs("g5.xlarge", "us-east-1", 1.006, "embedded"), priceIs("g5.xlarge", "us-west-1", 1.2, "update")}},
		{name: "older update: a type the embedded catalog lacks applies",
			update: file(newType(old)),
			checks: []func(*testing.T, *model.Catalog){priceIs("g5.sample", "us-east-1", 1.10, "update")}},
		{name: "older update: a type it added that the embedded catalog now has keeps the embedded hardware and price",
			update: file(complete(old)),
			warn:   "catalog update's prices for 1 offer in UPDATE (as of 2026-10-01)",
			checks: []func(*testing.T, *model.Catalog){priceIs("g5.xlarge", "us-east-1", 1.006, "embedded"), vcpus(4), noRedefinition}},
		{name: "newer update: a type it added that the embedded catalog now has is a price patch",
			update: file(complete(fresh)),
			checks: []func(*testing.T, *model.Catalog){priceIs("g5.xlarge", "us-east-1", 0.95, "update"), vcpus(4), noRedefinition}},
		{name: "older missing_since mark: the embedded catalog prices the type, so it is offered",
			update: file(missing(old)),
			warn:   `catalog update's "not in the latest fetch" marks on 1 type in UPDATE (as of 2026-10-01) are older than this gpuplan's embedded catalog`,
			checks: []func(*testing.T, *model.Catalog){offered(true)}},
		{name: "newer missing_since mark hides the type",
			update: file(missing(fresh)),
			checks: []func(*testing.T, *model.Catalog){offered(false)}},
		{name: "older prices and marks: one line",
			update: file(patch(old, price("us-east-1", 0.95), price("us-east-2", 0.96))) + "\n" + strings.Replace(missing(old), "g5.xlarge", "g5.2xlarge", 1),
			warn:   `catalog update's prices for 2 offers and its "not in the latest fetch" marks on 1 type in UPDATE (as of 2026-10-01) are older`},
		// Files are per provider; several are named in their folder.
		{name: "older prices in two files: both named",
			update: file(patch(old, price("us-east-1", 0.95))), update2: file(strings.Replace(patch("2026-09-01", price("us-east-1", 1.1)), "g5.xlarge", "g5.2xlarge", 1)),
			warn: "catalog update's prices for 2 offers in skypilot-aws.toml and skypilot-aws2.toml of UPDATEDIR (as of 2026-09-01–2026-10-01) are older than this gpuplan's embedded catalog (" + embeddedAsOf + "): the embedded ones are used; run gpuplan catalog update to refresh, or delete those files"},
		{name: "hand-written overlay older than the embedded catalog still wins",
			user:   file(patch(old, price("us-east-1", 0.95))),
			checks: []func(*testing.T, *model.Catalog){priceIs("g5.xlarge", "us-east-1", 0.95, "user")}},
		{name: "--catalog file older than the embedded catalog still wins",
			flg:    file(patch(old, price("us-east-1", 0.95))),
			checks: []func(*testing.T, *model.Catalog){priceIs("g5.xlarge", "us-east-1", 0.95, "flag")}},
		// The overlay's price is used whatever the update's date: the
		// update's age changes nothing there, so it is not counted.
		{name: "hand-written overlay wins over an older update and the embedded catalog, unsaid",
			update: file(patch(old, price("us-east-1", 0.95))), user: file(patch(old, price("us-east-1", 0.90))),
			checks: []func(*testing.T, *model.Catalog){priceIs("g5.xlarge", "us-east-1", 0.90, "user")}},
		{name: "hand-written overlay over one of two older update prices: the other counted",
			update: file(patch(old, price("us-east-1", 0.95), price("us-east-2", 0.96))), user: file(patch(old, price("us-east-1", 0.90))),
			warn:   "catalog update's prices for 1 offer in UPDATE (as of 2026-10-01)",
			checks: []func(*testing.T, *model.Catalog){priceIs("g5.xlarge", "us-east-1", 0.90, "user")}},
		{name: "--catalog file over an older update price, unsaid",
			update: file(patch(old, price("us-east-1", 0.95))), flg: file(patch(old, price("us-east-1", 0.90))),
			checks: []func(*testing.T, *model.Catalog){priceIs("g5.xlarge", "us-east-1", 0.90, "flag")}},
		{name: "one folder for XDG_DATA_HOME and XDG_CONFIG_HOME: read once, as the user's",
			update: file(patch(old, price("us-east-1", 0.95))), sameDir: true,
			checks: []func(*testing.T, *model.Catalog){priceIs("g5.xlarge", "us-east-1", 0.95, "user")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			t.Setenv("HOME", root)
			cfg, dat := filepath.Join(root, "config"), filepath.Join(root, "data")
			if tt.sameDir {
				dat = cfg
			}
			t.Setenv("XDG_CONFIG_HOME", cfg)
			t.Setenv("XDG_DATA_HOME", dat)
			write := func(dir, name, body string) string {
				t.Helper()
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(dir, name)
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			var flags []string
			updateDir := filepath.Join(dat, "gpuplan", "catalog.d")
			var updated string
			if tt.update != "" {
				updated = write(updateDir, "skypilot-aws.toml", tt.update)
			}
			if tt.update2 != "" {
				write(updateDir, "skypilot-aws2.toml", tt.update2)
			}
			// The warning names the file, or the folder of several.
			tt.warn = strings.NewReplacer("UPDATEDIR", updateDir, "UPDATE", updated).Replace(tt.warn)
			if tt.user != "" {
				write(filepath.Join(cfg, "gpuplan", "catalog.d"), "negotiated.toml", tt.user)
			}
			if tt.flg != "" {
				flags = append(flags, write(filepath.Join(root, "flag"), "aws.toml", tt.flg))
			}
			c, warnings, err := LoadWith(flags)
			if err != nil {
				t.Fatal(err)
			}
			var stale []string
			for _, w := range warnings {
				if s := w.String(); strings.Contains(s, "older than this gpuplan's embedded catalog") {
					stale = append(stale, s)
				}
			}
			switch {
			case tt.warn == "" && len(stale) > 0:
				t.Errorf("warnings %q, want none about an older update", stale)
			case tt.warn != "" && (len(stale) != 1 || !strings.HasPrefix(stale[0], tt.warn)):
				t.Errorf("warnings %q, want one starting %q", stale, tt.warn)
			}
			for _, check := range tt.checks {
				check(t, c)
			}
		})
	}
}

func vcpus(n int) func(*testing.T, *model.Catalog) {
	return func(t *testing.T, c *model.Catalog) {
		t.Helper()
		for i := range c.Instances {
			if in := &c.Instances[i]; in.Provider == "aws" && in.Type == "g5.xlarge" && in.VCPUs != n {
				t.Errorf("g5.xlarge: %d vCPUs, want the embedded catalog's %d", in.VCPUs, n)
			}
		}
	}
}

func noRedefinition(t *testing.T, c *model.Catalog) {
	t.Helper()
	if len(c.Redefined) > 0 {
		t.Errorf("redefined %+v, want none: every command would refuse the file without --trust-overlay", c.Redefined)
	}
}

func offered(want bool) func(*testing.T, *model.Catalog) {
	return func(t *testing.T, c *model.Catalog) {
		t.Helper()
		for i := range c.Instances {
			if in := &c.Instances[i]; in.Provider == "aws" && in.Type == "g5.xlarge" && in.Offered() != want {
				t.Errorf("g5.xlarge offered %v (missing_since %q), want %v", in.Offered(), in.MissingSince, want)
			}
		}
	}
}
