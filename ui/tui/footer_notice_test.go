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

// TestFooterErrorWraps (tui37): an error in the status line wraps to up
// to three lines, so the command it names is read whole at 80 columns
// (a plan's phase with a config file: "open it with gpuplan --con…" was
// cut); a longer one is cut on its third line, and a status that is not
// an error stays one line.
func TestFooterErrorWraps(t *testing.T) {
	f := newFooter(testStyles())
	f.setSize(80)
	k := localKeys(nil)
	msg := `phase "fine tune" keeps its answers in cfgs/ft.toml: open it with gpuplan --config cfgs/plan.toml --phase 'fine tune'`
	f.say(msg, true)
	lines := strings.Split(ansi.Strip(f.view(k, false)), "\n")
	status := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
	if !strings.Contains(status, "gpuplan --config cfgs/plan.toml --phase 'fine tune'") || f.height(k, false) < 3 {
		t.Errorf("the error is not read whole:\n%s", strings.Join(lines, "\n"))
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("line %d is %d cells: %q", i+1, ansi.StringWidth(l), l)
		}
	}
	f.say(strings.Repeat("word ", 100), true)
	long := f.height(k, false)
	f.say("", false)
	bare := f.height(k, false)
	if long-bare != maxErrLines {
		t.Errorf("a long error takes %d lines, want %d", long-bare, maxErrLines)
	}
	f.say(msg, false)
	if f.height(k, false) != bare+1 || strings.Contains(ansi.Strip(f.view(k, false)), "'fine tune'") {
		t.Errorf("a status that is not an error wrapped:\n%s", ansi.Strip(f.view(k, false)))
	}
}
