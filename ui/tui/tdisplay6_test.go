package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The quit dialog kept its size when its message wrapped, and huh cut
// the buttons off ("quit [ stay ]" gone) at 80 and 120 columns, in
// English and Chinese; after a launch export the message is longest.
func TestQuitDialogShowsButtons(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		for _, w := range []int{80, 120} {
			for _, launch := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s-%d-launch%v", lang, w, launch), func(t *testing.T) {
					opts := Options{}
					if lang == "zh" {
						opts = zhOptions()
					}
					m := start(t, newTestApp(t, testCatalog(t), opts), size(w, 24))
					m.a.Epochs = "7"
					m.recompute()
					if launch {
						dir := t.TempDir()
						m = drive(t, m, msgs(ctrlE, down, enter, replace(filepath.Join(dir, "sky.yaml")), enter)...)
					}
					m = drive(t, m, runes("q"))
					if m.dialog == nil || m.dialog.kind != dialogQuit {
						t.Fatalf("no quit dialog:\n%s", screenText(m))
					}
					buttons := "[ " + m.lang.T("stay") + " ]" // the focused button, inside the dialog
					if s := screenText(m); !strings.Contains(s, buttons) || !strings.Contains(s, m.lang.T("quit")+"   "+buttons) {
						t.Errorf("buttons missing:\n%s", s)
					}
				})
			}
		}
	}
}

// The Chinese plan table's header said "$/h" where every other Chinese
// table says "$/小时".
func TestPlanHeaderChinese(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(120, 40)}, msgs(twoPhases(), enter)...)...)
	p := m.plan.plan
	opts := zhOptions()
	opts.Plan = &p
	r := start(t, newTestApp(t, testCatalog(t), opts), size(120, 40), ctrlT)
	if s := screenText(r); r.screen != screenPlan || !strings.Contains(s, "$/小时") || strings.Contains(s, "$/h ") {
		t.Errorf("Chinese plan header:\n%s", s)
	}
}
