package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// TestPrecisionLabelsFitOneLine: every option of the Precision pages fits
// one line of the narrowest form, in English and Chinese; the int8 note
// wrapped "bitsandbytes)" onto a line of its own at 120 columns.
func TestPrecisionLabelsFitOneLine(t *testing.T) {
	for _, tag := range []language.Tag{language.English, language.SimplifiedChinese} {
		lang := i18n.New(tag)
		for _, notes := range []map[model.Precision]string{precisionNotes, servingNotes} {
			for p, note := range notes {
				label := fmt.Sprintf("%-9s %s", p, lang.T(note))
				if w := ansi.StringWidth(label); w > precisionNoteWidth {
					t.Errorf("%s: %q is %d cells, want at most %d", tag, label, w, precisionNoteWidth)
				}
			}
		}
	}
}

// TestPrecisionNotesName4BitAWQ: AWQ is 4-bit only in vLLM (AWQConfig
// refuses weight_bits != 4), so the int8 note does not name it.
func TestPrecisionNotesName4BitAWQ(t *testing.T) {
	zh := i18n.New(language.SimplifiedChinese)
	for _, s := range []string{precisionNotes[model.INT8], zh.T(precisionNotes[model.INT8])} {
		if strings.Contains(strings.ToUpper(s), "AWQ") {
			t.Errorf("int8 note %q names AWQ, which vLLM runs at 4 bits only", s)
		}
	}
	if n := servingNotes[model.FP8]; !strings.Contains(n, "weight-only") {
		t.Errorf("serving fp8 note %q does not say weight-only below Ada", n)
	}
}
