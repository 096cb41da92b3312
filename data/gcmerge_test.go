package data

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestLowerGCForLargeOverlay: a load with a file of 1 MiB or more runs at
// mergeGCPercent unless the percentage is lower already (the user's GOGC,
// or off), and the restore puts back what was there; small files and
// missing paths change nothing.
func TestLowerGCForLargeOverlay(t *testing.T) {
	dir := t.TempDir()
	small, large := filepath.Join(dir, "small.toml"), filepath.Join(dir, "vms.csv")
	if err := os.WriteFile(small, make([]byte, 1000), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(large, make([]byte, largeOverlayBytes), 0o600); err != nil {
		t.Fatal(err)
	}
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)
	for _, c := range []struct {
		name        string
		paths       []string
		before, now int
	}{
		{"no overlay", nil, 400, 400},
		{"a small overlay", []string{small}, 400, 400},
		{"a missing path", []string{filepath.Join(dir, "none.csv")}, 400, 400},
		{"a directory", []string{dir}, 400, 400},
		{"a large overlay, short command's 400", []string{small, large}, 400, mergeGCPercent},
		{"a large overlay, Go's 100", []string{large}, 100, mergeGCPercent},
		{"a large overlay, the user's GOGC=20", []string{large}, 20, 20},
		{"a large overlay, GOGC=off", []string{large}, -1, -1},
	} {
		debug.SetGCPercent(c.before)
		restore := lowerGCForLargeOverlay(c.paths)
		if got := debug.SetGCPercent(-1); got != c.now {
			t.Errorf("%s: %d during the load, want %d", c.name, got, c.now)
		}
		debug.SetGCPercent(c.now)
		restore()
		if got := debug.SetGCPercent(100); got != c.before {
			t.Errorf("%s: %d after the load, want %d back", c.name, got, c.before)
		}
	}
}
