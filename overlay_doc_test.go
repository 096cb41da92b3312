package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataDocOverlayExample: the overlay example of docs/data.md (a
// negotiated price and a private cluster) loads and is ranked as written,
// no price held as fake (walk49: the private cluster's $1.00/h for eight
// A100s was held without --trust-overlay).
func TestDataDocOverlayExample(t *testing.T) {
	b, err := os.ReadFile("docs/data.md")
	if err != nil {
		t.Fatal(err)
	}
	var example string
	for _, block := range strings.Split(string(b), "```toml\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		if strings.Contains(block, `type = "dgx-a100"`) {
			example = block
		}
	}
	if example == "" {
		t.Fatal("docs/data.md has no overlay example with the lab's dgx-a100")
	}
	path := filepath.Join(t.TempDir(), "lab.toml")
	if err := os.WriteFile(path, []byte(example), 0o644); err != nil {
		t.Fatal(err)
	}
	m := offersJSON(t, "--catalog", path, "offers", "--providers", "lab,aws", "A100:8,A100-80GB:8")
	found := map[string]bool{}
	for _, r := range m.Rows {
		if r.Origin == path {
			found[r.Provider+"/"+r.InstanceType] = true
		}
	}
	if !found["lab/dgx-a100"] || !found["aws/p4d.24xlarge"] {
		t.Errorf("rows priced by the example: %v, want lab/dgx-a100 and aws/p4d.24xlarge", found)
	}
	if _, _, errs := runArgs(t, "--catalog", path, "offers", "--providers", "lab"); strings.Contains(errs, "look fake") {
		t.Errorf("the example's prices are held: %s", errs)
	}
}
