package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/tui"
)

// TestOlderUpdateSaid: a catalog update fetched before this gpuplan's
// newer embedded catalog no longer overrides it (aws g5.xlarge
// us-east-1 read $0.95 as of 2026-10-01 over the embedded $1.006 of
// 2026-11-30): the embedded price is ranked, stderr says so once, the
// region the update adds is still offered, and neither the prices line
// nor the configurator's header calls the update "updated" (the header
// read "catalog 2026-12-03 (updated 2026-10-01)").
func TestOlderUpdateSaid(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", "")
	dir := filepath.Join(home, ".local", "share", "gpuplan", "catalog.d")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const old = `schema_version = 1
provider = "aws"

[[instance]]
type = "g5.xlarge"
source = "test: an old catalog update"
as_of = 2026-10-01
prices = [{ region = "us-east-1", on_demand = 0.95 }, { region = "us-west-1", on_demand = 1.2 }]
`
	file := filepath.Join(dir, "skypilot-aws.toml")
	if err := os.WriteFile(file, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	env := Env{Stdin: strings.NewReader(""), Getenv: func(string) string { return "" }, Version: "test", LoadCatalog: data.LoadWith,
		UpdateDir: data.UpdateDir, RunTUI: func(context.Context, *model.Catalog, tui.Options) error { return nil }, Probes: testProbes()}
	run := func(args ...string) (string, string) {
		t.Helper()
		var out, errb bytes.Buffer
		e := env
		e.Args, e.Stdout, e.Stderr = args, &out, &errb
		if code := Run(e); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		return out.String(), errb.String()
	}
	// The line names the file, as the user refreshes or deletes it.
	warn := "gpuplan: warning: catalog update's prices for 1 offer in " + file + " (as of 2026-10-01) are older than this gpuplan's embedded catalog ("
	out, errs := run("offers", "a10g:1", "--providers", "aws", "--all-regions", "--json")
	if strings.Count(errs, warn) != 1 || !strings.Contains(errs, "run gpuplan catalog update to refresh, or delete the file\n") {
		t.Errorf("stderr does not say once %q:\n%s", warn, errs)
	}
	var doc struct {
		Rows []struct {
			Type   string  `json:"instance_type"`
			Region string  `json:"region"`
			USD    float64 `json:"usd_per_hour"`
			Origin string  `json:"origin"`
			AsOf   string  `json:"as_of"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	type price struct {
		usd    float64
		origin string
	}
	want := map[string]price{"us-east-1": {1.006, "embedded"}, "us-west-1": {1.2, file}} // the region only the update prices
	for _, r := range doc.Rows {
		if w, ok := want[r.Region]; ok && r.Type == "g5.xlarge" {
			if got := (price{r.USD, r.Origin}); got != w {
				t.Errorf("g5.xlarge %s: $%v from %s (as of %s), want $%v from %s", r.Region, got.usd, got.origin, r.AsOf, w.usd, w.origin)
			}
			delete(want, r.Region)
		}
	}
	if len(want) > 0 {
		t.Errorf("g5.xlarge not offered in %v", want)
	}
	out, _ = run("offers", "a10g:1", "--providers", "aws")
	if line := "catalog update of 2026-10-01 (1 file), older: only for offers the embedded catalog lacks or has older"; !strings.Contains(out, line) || strings.Contains(out, "updated 2026-10-01") {
		t.Errorf("prices line does not say %q:\n%s", line, out)
	}
	cat, _, err := data.LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := priceNote(&env, cat); got != "(older update 2026-10-01)" {
		t.Errorf("header note %q, want (older update 2026-10-01)", got)
	}
}
