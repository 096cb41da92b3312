// Package docmark keeps a generated part of a Markdown file between two
// marker lines: the calibration tests write their summaries into the
// README and docs/calibration.md with it, and check them without -update.
// Test helper only: it reads and writes the repository's files.
package docmark

import (
	"bytes"
	"os"
	"testing"
)

// Section puts content between start and end in file when update is set;
// otherwise it reports an error, naming regen (the command that rewrites
// it), when file holds something else there. Missing markers are fatal.
func Section(t testing.TB, file, start, end, content string, update bool, regen string) {
	t.Helper()
	md, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	i, j := bytes.Index(md, []byte(start)), bytes.Index(md, []byte(end))
	if i < 0 || j < i {
		t.Fatalf("%s lacks the %q … %q markers", file, start, end)
	}
	if !update {
		if string(md[i+len(start):j]) != content {
			t.Errorf("%s between %q and %q is not what the suite computes: %s", file, start, end, regen)
		}
		return
	}
	out := append(append(append([]byte{}, md[:i+len(start)]...), content...), md[j:]...)
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
