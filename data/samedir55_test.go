package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOverlayDirsOneFolder (walk55): with XDG_DATA_HOME and
// XDG_CONFIG_HOME the same folder, catalog update's catalog.d is the
// hand-written one; a bad file there was read twice and its error said
// twice with two fixes ("run gpuplan catalog update again …; … fix the
// file, or move it out of …"). It is read once, as the user's. A price
// over the bound in a CNY file is not called USD.
func TestOverlayDirsOneFolder(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("XDG_DATA_HOME", home)
	dir := filepath.Join(home, "gpuplan", "catalog.d")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const overlay = `schema_version = 1
provider = "alibaba"

[[instance]]
type = "ecs.gn7i-c8g1.2xlarge"
gpu = "a10"
gpu_count = 1
vcpus = 8
memory_gib = 30
currency = "CNY"
source = "test fixture: a negotiated price"
as_of = 2026-12-02
prices = [{ region = "cn-hangzhou", on_demand = 70000.0 }]
`
	if err := os.WriteFile(filepath.Join(dir, "ali.toml"), []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := LoadWith(nil)
	if err == nil {
		t.Fatal("a 70,000 CNY/h price loaded")
	}
	msg := err.Error()
	const want = `prices "cn-hangzhou": above 10000 per hour (in CNY, the file's currency)`
	if strings.Count(msg, want) != 1 || strings.Contains(msg, "USD") || strings.Contains(msg, "catalog update") ||
		!strings.HasSuffix(msg, "fix the file, or move it out of "+dir) {
		t.Errorf("error %q: want %q once, no USD, the hand-written file's fix", msg, want)
	}
	// A good file there is one overlay, not two.
	if err := os.WriteFile(filepath.Join(dir, "ali.toml"), []byte(strings.Replace(overlay, "70000.0", "71.0", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	cat, _, err := LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range cat.Instances {
		if cat.Instances[i].Provider == "alibaba" && cat.Instances[i].Type == "ecs.gn7i-c8g1.2xlarge" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d alibaba ecs.gn7i-c8g1.2xlarge rows, want 1", n)
	}
}
