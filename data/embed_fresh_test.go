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
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(embedgen.File)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: it differs from what catalog/*.toml gives (first difference at byte %d); run `go generate ./data` and commit the result",
			embedgen.File, firstDiff(got, want))
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
