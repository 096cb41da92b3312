package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 29, item 3: an oversize safetensors index or config.json given to
// the importer is one line on stderr and exit 2, refused by its size (a
// 1 TiB sparse file: a read would not finish).
func TestImporterOversizeExit2(t *testing.T) {
	for _, tc := range []struct{ flag, name, want string }{
		{"--safetensors", "model.safetensors.index.json", "above the 16 MiB limit for a safetensors index"},
		{"--hf-config", "config.json", "above the 4 MiB limit for a config.json"},
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, tc.name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(1 << 40); err != nil {
			t.Skipf("no sparse files here: %v", err)
		}
		f.Close()
		code, _, stderr, _ := runCLIReads(t, "estimate", tc.flag, p, "--gpu", "h100-sxm")
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and one line with %q", tc.flag, code, stderr, tc.want)
		}
	}
}
