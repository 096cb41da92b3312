package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// keptGPUsWarning is data's warning for a SkyPilot vms.csv whose GPUs
// differ from the catalog's for a type it has (its format, as
// ui/cli/lang_formats.go lists it), and downloadsWarning what
// gpuplan --catalog Downloads/lambda/vms.csv prints for such a file.
const keptGPUsWarning = "catalog %s: GPUs differ from the catalog's sourced entries (file ≠ catalog) for %s: %s; " +
	"the catalog's are kept, the prices taken from the file"

var downloadsWarning = fmt.Sprintf(keptGPUsWarning, "Downloads/lambda/vms.csv", "1 type", "lambda/gpu_8x_h100_sxm5 (12 × h100-sxm ≠ 8 × h100-sxm)")

// flat is s with its whitespace runs made one space and the box's side
// bars dropped: wrapped text reads as one line.
func flat(s string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("║", " ", "|", " ").Replace(s)), " ")
}

// The catalog's warnings show over the first screen (trial 15b N5: the
// load warnings appeared only in the scrollback after quitting);
// any key closes them without acting, leaving the screen a start without
// warnings shows; ctrl+c still quits.
func TestCatalogWarningsShown(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {60, 20}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			opts := Options{Warnings: []string{downloadsWarning, "overlay \x1b]0;title\x07prices.toml: 3 prices below the median"}}
			m := start(t, newTestApp(t, testCatalog(t), opts), size(sz[0], sz[1]))
			text := screenText(m)
			checkFits(t, m.View().Content, sz[0], sz[1])
			if got := flat(text); !strings.Contains(got, "Catalog warnings") || !strings.Contains(got, flat(downloadsWarning)) {
				t.Errorf("the first screen does not show the warning whole:\n%s", text)
			}
			if strings.Contains(m.View().Content, "\x1b]0;") {
				t.Error("a warning's escape sequence reached the terminal")
			}
			plain := start(t, newTestApp(t, testCatalog(t), Options{}), size(sz[0], sz[1]))
			m = drive(t, m, enter)
			if got, want := screenText(m), screenText(plain); got != want {
				t.Errorf("after a key the screen is not the first screen (the key acted, or the box stayed):\n%s\nwant:\n%s", got, want)
			}
		})
	}
	m := start(t, newTestApp(t, testCatalog(t), Options{Warnings: []string{downloadsWarning}}), size(100, 30))
	if _, cmd := m.Update(ctrlC); cmd == nil || !isQuit(cmd) {
		t.Error("ctrl+c over the warnings does not quit")
	}
}

// More warnings than the screen holds: as many as fit, then how many
// more (never cut silently).
func TestCatalogWarningsMore(t *testing.T) {
	var ws []string
	for i := range 30 {
		ws = append(ws, fmt.Sprintf("overlay x%d.toml: a warning", i))
	}
	m := start(t, newTestApp(t, testCatalog(t), Options{Warnings: ws}), size(80, 24))
	text := screenText(m)
	checkFits(t, m.View().Content, 80, 24)
	shown := strings.Count(text, ": a warning")
	if shown == 0 || shown == 30 || !strings.Contains(text, fmt.Sprintf("… and %d more", 30-shown)) {
		t.Errorf("%d of 30 warnings shown, want some and a count of the rest:\n%s", shown, text)
	}
}

// isQuit reports whether cmd is (or batches) tea.Quit.
func isQuit(cmd tea.Cmd) bool {
	switch msg := run(cmd).(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if c != nil && isQuit(c) {
				return true
			}
		}
	}
	return false
}

// Trial 15c B3: over the warnings the footer listed the configurator's
// keys (↑ up, ctrl+o all offers, q quit…) although any key only closes
// the box. It says what a key does there; after the key, the usual keys.
func TestCatalogWarningsFooter(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{Warnings: []string{downloadsWarning}}), size(120, 40))
	lines := strings.Split(strings.TrimRight(screenText(m), " \n"), "\n")
	foot := strings.Join(strings.Fields(lines[len(lines)-1]), " ")
	if foot != "any key close the warnings • ctrl+c quit" {
		t.Errorf("the footer over the warnings reads %q, want what a key does there", foot)
	}
	m = drive(t, m, runes("?"))
	if m.fullHelp || m.notice != nil {
		t.Errorf("? over the warnings: full help %v, box shown %v; want the box closed, nothing else", m.fullHelp, m.notice != nil)
	}
	if text := screenText(m); !strings.Contains(text, "ctrl+o all offers") || strings.Contains(text, "any key") {
		t.Errorf("after the key the footer is not the configurator's:\n%s", text)
	}
}
