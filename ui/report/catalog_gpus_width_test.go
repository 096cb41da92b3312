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

// Walk52: catalog gpus was 105 columns wide at any terminal width, so at
// 80 every row wrapped. A narrower terminal cuts the names first (to 20
// cells), then hides fp32 and tf32 (said under the table) and cuts the
// names to fit; a pipe (width 0) gets every column and names whole to 30.
func TestCatalogGPUsFitWidth(t *testing.T) {
	cat := leakCatalog(t)
	for _, lang := range []*i18n.Printer{nil, i18n.New(language.SimplifiedChinese)} {
		for _, tc := range []struct {
			width    int
			fp32     bool // the fp32/tf32 columns shown
			fullName bool // "NVIDIA H100 SXM5 80GB" whole
		}{{0, true, true}, {120, true, true}, {100, true, true}, {80, false, false}} {
			var b bytes.Buffer
			if err := WriteCatalogGPUs(&b, &Renderer{Profile: colorprofile.NoTTY, Lang: lang}, cat, tc.width); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
			for _, l := range lines {
				if w := ansi.StringWidth(l); tc.width > 0 && w > tc.width {
					t.Errorf("width %d: a line of %d columns: %q", tc.width, w, l)
				}
			}
			if got := strings.Contains(lines[0], "tf32"); got != tc.fp32 {
				t.Errorf("width %d: tf32 shown %v, want %v:\n%s", tc.width, got, tc.fp32, out)
			}
			if hidden := strings.Contains(out, "fp32") && strings.Contains(out, "tf32") && !tc.fp32; hidden != !tc.fp32 {
				t.Errorf("width %d: no line says fp32 and tf32 are hidden:\n%s", tc.width, out)
			}
			if got := strings.Contains(out, "NVIDIA H100 SXM5 80GB"); got != tc.fullName {
				t.Errorf("width %d: full name shown %v, want %v:\n%s", tc.width, got, tc.fullName, out)
			}
		}
	}
}
