package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/ui/i18n"
)

// New-user walk (walk51): catalog models showed qwen3-30b-a3b as 30.5B
// with no word of its 3.35B active parameters, which only --json, -o csv
// and estimate gave. The table has an "active" column, "—" for a dense
// model; it fits 120 columns whole, and at 80 hides the shape (said under
// it) and cuts names rather than wrap every row.
func TestCatalogModelsActiveColumn(t *testing.T) {
	cat := leakCatalog(t)
	render := func(width int, p *i18n.Printer) (string, []string) {
		t.Helper()
		var b bytes.Buffer
		r := &Renderer{Profile: colorprofile.NoTTY, Lang: p}
		if err := WriteCatalogModels(&b, r, cat, width); err != nil {
			t.Fatal(err)
		}
		return b.String(), strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	}
	row := func(lines []string, key string) []string {
		for _, l := range lines {
			if f := strings.Fields(l); len(f) > 0 && f[0] == key {
				return f
			}
		}
		t.Fatalf("no row %s", key)
		return nil
	}
	for _, width := range []int{0, 120, 80} {
		out, lines := render(width, nil)
		if h := strings.Fields(lines[0]); len(h) < 5 || h[3] != "params" || h[4] != "active" {
			t.Fatalf("width %d: header %q, want params then active", width, lines[0])
		}
		if f := row(lines, "qwen3-30b-a3b"); !strings.Contains(strings.Join(f, " "), "30.5B 3.35B") {
			t.Errorf("width %d: qwen3-30b-a3b row %q, want 30.5B then 3.35B active", width, f)
		}
		if f := row(lines, "llama-3.1-8b"); !strings.Contains(strings.Join(f, " "), "8.03B —") {
			t.Errorf("width %d: llama-3.1-8b row %q, want 8.03B then — (dense)", width, f)
		}
		limit := max(width, 120) // a pipe's whole table fits 120 too
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > limit {
				t.Errorf("width %d: a line of %d columns:\n%s", width, w, l)
				break
			}
		}
		hides := strings.Contains(out, "Hidden to fit 80 columns: shape (--json shows it).")
		if hides != (width == 80) || (width == 80) == strings.Contains(lines[0], "shape") {
			t.Errorf("width %d: the shape shown or hidden wrongly:\n%s", width, out)
		}
	}
	zh := i18n.New(language.SimplifiedChinese)
	if _, lines := render(80, zh); !strings.Contains(lines[0], "激活参数") {
		t.Errorf("zh-CN header %q, want 激活参数", lines[0])
	}
}
