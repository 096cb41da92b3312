package data

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// catalogFS is the TOML source of the embedded catalog, read from the
// package directory (go test runs there); the binary no longer embeds it.
var catalogFS = os.DirFS(".")

// TestLoadMatchesTOML checks the compiled catalog against a fresh decode
// of the TOML, value by value, so the literal writer loses nothing.
func TestLoadMatchesTOML(t *testing.T) {
	fromTOML, err := load(catalogFS)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, fromTOML) {
		for i := range fromTOML.Instances {
			if i < len(got.Instances) && !reflect.DeepEqual(got.Instances[i], fromTOML.Instances[i]) {
				t.Fatalf("instance %d: compiled %+v, TOML %+v", i, got.Instances[i], fromTOML.Instances[i])
			}
		}
		t.Fatal("Load() differs from decoding catalog/*.toml; run `go generate ./data`")
	}
}

// TestLoadCopies checks Load hands out copies: changing one result (as an
// overlay merge or a UI may) must not change the next.
func TestLoadCopies(t *testing.T) {
	a, _ := Load()
	a.GPUs[0].Key = "changed"
	a.Instances[0].Prices[0].OnDemandUSD = -1
	a.Instances[0].Prices = append(a.Instances[0].Prices, a.Instances[0].Prices[0])
	b, _ := Load()
	if b.GPUs[0].Key == "changed" || b.Instances[0].Prices[0].OnDemandUSD == -1 {
		t.Fatal("Load() returned shared data: a change to one catalog shows in the next")
	}
	if b.Instances[1].Prices[0].OnDemandUSD == -1 || len(b.Instances[0].Prices) == len(a.Instances[0].Prices) {
		t.Fatal("an append to one instance's prices reached another catalog")
	}
}

// TestLoadWithLeavesCompiledCatalog: LoadWith without overlays hands out
// the compiled catalog read-only, and with overlays merges into new
// arrays; a price patch and a SkyPilot CSV must leave the shared catalog,
// and a plain load made after them, as compiled. (Callers must not write
// to a LoadWith catalog, overlaid or not: its untouched instances share
// their prices with the compiled one. Load returns a copy to change.)
func TestLoadWithLeavesCompiledCatalog(t *testing.T) {
	before := copyCatalog(sharedCatalog())
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	in := &before.Instances[0]
	patch := filepath.Join(dir, "patch.toml")
	if err := os.WriteFile(patch, []byte(fmt.Sprintf(`schema_version = 1
[[instance]]
provider = %q
type = %q
source = "our contract"
prices = [{ region = %q, on_demand = 0.01 }, { region = "new-region-1", on_demand = 0.02 }]
`, in.Provider, in.Type, in.Prices[0].Region)), 0o644); err != nil {
		t.Fatal(err)
	}
	// A SkyPilot CSV last merges in place, into its own arrays.
	csv := filepath.Join(dir, "aws", "vms.csv")
	b, err := os.ReadFile("testdata/skypilot/aws.csv")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(csv), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(csv, b, 0o644); err != nil {
		t.Fatal(err)
	}
	plain, _, err := LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadWith([]string{csv}); err != nil {
		t.Fatal(err)
	}
	patched, _, err := LoadWith([]string{csv, patch})
	if err != nil {
		t.Fatal(err)
	}
	if got := patched.Instances[0].Prices[0].OnDemandUSD; got != 0.01 {
		t.Fatalf("the patch did not apply: %s %s at $%g", in.Type, in.Prices[0].Region, got)
	}
	if got := plain.Instances[0].Prices[0].OnDemandUSD; got != in.Prices[0].OnDemandUSD {
		t.Errorf("a later overlay load changed an earlier plain load: $%g, want $%g", got, in.Prices[0].OnDemandUSD)
	}
	again, _, err := LoadWith(nil) // a second plain load, after the overlays
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Instances, before.Instances) {
		t.Error("a plain load after overlay loads differs from the compiled catalog")
	}
	shared := sharedCatalog()
	if !reflect.DeepEqual(shared.Instances, before.Instances) || !reflect.DeepEqual(shared.GPUs, before.GPUs) ||
		!reflect.DeepEqual(shared.Models, before.Models) || !reflect.DeepEqual(shared.Discounts, before.Discounts) {
		t.Fatal("an overlay load changed the shared compiled catalog")
	}
}

// TestPrefetchThenLoad: a load that comes while Prefetch still indexes
// the compiled catalog waits for it and gets the same catalog, on any
// goroutine (run with -race: the index is written once, before any read).
func TestPrefetchThenLoad(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	Prefetch()
	Prefetch() // twice is harmless
	const n = 4
	cats := make(chan *model.Catalog, n)
	for range n {
		go func() {
			c, _, err := LoadWith(nil)
			if err != nil {
				t.Error(err)
			}
			cats <- c
		}()
	}
	shared := sharedCatalog()
	for range n {
		c := <-cats
		if c == nil || len(c.Instances) != len(shared.Instances) || &c.Instances[0] != &shared.Instances[0] {
			t.Fatal("a load after Prefetch is not the shared compiled catalog")
		}
		if _, err := c.Model("llama-3.1-8b"); err != nil {
			t.Fatalf("a load after Prefetch is not indexed: %v", err)
		}
	}
}
