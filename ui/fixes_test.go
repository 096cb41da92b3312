package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

var shiftTab = tea.KeyMsg{Type: tea.KeyShiftTab}

// Trap: shift+tab on an invalid answer blurred the field, then huh
// refused to leave the page: no field had the focus and no key worked.
// Moving back from an invalid answer keeps the focus and says why; esc
// says why too; once fixed, both move back.
func TestBackFromInvalidAnswer(t *testing.T) {
	for _, sc := range []struct {
		name, page string
		pre        []tea.Msg
		field      func(a *answers) *string
	}{
		{"batch", "Batch and length", nil, func(a *answers) *string { return &a.Batch }},
		{"gpus", "GPUs and strategy", nil, func(a *answers) *string { return &a.GPUs }},
	} {
		t.Run(sc.name, func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40))
			if sc.name == "gpus" {
				m = toPage(t, m, "Distribution")
				m = drive(t, m, down, enter) // one node, several GPUs
			}
			m = toPage(t, m, sc.page)
			for _, back := range []tea.Msg{shiftTab, esc} {
				m = drive(t, m, replace("x")...)
				focused := m.wiz.form.GetFocusedField()
				m = drive(t, m, back)
				if m.wiz.form.GetFocusedField() != focused || m.wiz.pages[m.wiz.focusedPage()].title != sc.page {
					t.Fatalf("%s on an invalid answer moved the focus", back)
				}
				if !strings.Contains(screenText(m), "fix it to go back") {
					t.Errorf("%s: the screen does not say why it stays:\n%s", back, screenText(m))
				}
				m = drive(t, m, replace("8")...)
				if got := *sc.field(m.a); got != "8" {
					t.Fatalf("after %s, typing went nowhere: answer %q, want 8", back, got)
				}
			}
			m = drive(t, m, shiftTab)
			if m.wiz.pages[m.wiz.focusedPage()].title == sc.page {
				t.Errorf("with a valid answer shift+tab did not leave the page")
			}
			before := m.a.key()
			m = drive(t, m, down) // the previous page's field takes keys
			if m.a.key() == before {
				t.Error("after moving back, keys change nothing: no field focused")
			}
		})
	}
}
