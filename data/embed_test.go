package data

import (
	"os"
	"reflect"
	"testing"
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
