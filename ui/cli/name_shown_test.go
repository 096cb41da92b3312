package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A model named by its config file's name reaches the estimate and
// recommend headers through the one sanitiser: format and bidi characters
// escaped visibly, and a name that would show nothing written quoted, so
// no header starts " · qlora" (attack r29b F2: U+202E and U+200B printed
// raw, a name of ESC [31m stripped to nothing).
func TestHeaderNameShownSafe(t *testing.T) {
	cfg, err := os.ReadFile("testdata/llama-3.1-8b-awq/config.json")
	if err != nil {
		t.Fatal(err)
	}
	const rest = " · qlora · amp-fp16 · adamw · 1 GPU · pytorch"
	for _, tc := range []struct{ file, want string }{
		{"x\u202eevil", `x\u202eevil`},
		{"y\u200bz", `y\u200bz`},
		{"\ufeffbom", `\ufeffbom`},
		{"a\u2066b\u2069", `a\u2066b\u2069`},
		{"l\u200er\u200f", `l\u200er\u200f`},
		{"\x1b[31m", `\x1b[31m`},
		{" .json", `" "`},
		{"\u0301", `"\u0301"`},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, tc.file)
		if err := os.WriteFile(path, cfg, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range [][]string{{"estimate", "--gpu", "l4"}, {"recommend"}} {
			code, out, errs := runServeCLI(t, append(cmd, "--hf-config", path, "--task", "qlora")...)
			first, _, _ := strings.Cut(out, "\n")
			if code != 0 || first != tc.want+rest {
				t.Errorf("%s %q: exit %d, first line %q, want %q\n%s", cmd[0], tc.file, code, first, tc.want+rest, errs)
			}
		}
	}
}
