package tui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

// The catalog warnings box narrows the short help to "any key" and quit
// while a form's keys are still set: at any width, and above all at
// widths too narrow for one line, the footer draws those two keys, never
// splits them at the form's count (a slice out of range that crashed the
// configurator under 40 columns, attack round 8).
func TestFooterNoticeNarrow(t *testing.T) {
	k := defaultKeys()
	k.notice = true
	for i := 0; i < 10; i++ {
		k.form = append(k.form, key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next field")))
	}
	for _, w := range []int{0, 10, 30, 39, 40, 120} {
		f := newFooter(testStyles())
		f.setSize(w)
		got := ansi.Strip(f.view(k, false))
		if w >= 30 && !strings.Contains(got, "any key") {
			t.Errorf("width %d: footer %q lacks the any-key help", w, got)
		}
		if strings.Contains(got, "next field") {
			t.Errorf("width %d: footer %q shows the form's keys under the warnings", w, got)
		}
	}
}
