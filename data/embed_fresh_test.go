package data_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/data/internal/embedgen"
)

// TestEmbeddedCatalogFresh regenerates catalog_gen.go in memory from
// catalog/*.toml and fails when the committed file differs: someone edited
// the TOML (or the loader) and did not run go generate.
func TestEmbeddedCatalogFresh(t *testing.T) {
	c, err := data.LoadTOML(os.DirFS("."))
	if err != nil {
		t.Fatalf("catalog/*.toml does not load: %v", err)
	}
	want, err := embedgen.Source(c)
	checkFresh(t, embedgen.File, "catalog/*.toml", want, err)
}

// checkFresh fails when the committed file differs from want, what from
// gives now (or when generating it failed: err).
func checkFresh(t *testing.T, file, from string, want []byte, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: it differs from what %s gives (first difference at byte %d); run `go generate ./data` and commit the result",
			file, from, firstDiff(got, want))
	}
}

// TestEmbeddedSpotDefaultsFresh is TestEmbeddedCatalogFresh for
// spot_gen.go and spot/interruptions.toml.
func TestEmbeddedSpotDefaultsFresh(t *testing.T) {
	providers, fallback, err := data.SpotDefaultsTOML()
	if err != nil {
		t.Fatalf("spot/interruptions.toml does not load: %v", err)
	}
	want, err := embedgen.SpotSource(providers, fallback)
	checkFresh(t, embedgen.SpotFile, "spot/interruptions.toml", want, err)
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
