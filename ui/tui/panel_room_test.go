package tui

import (
	"strings"
	"testing"
)

// TestFirstScreenUsesItsRoom: the first screen's offers take the room
// the notes of offers not shown would have had: the panel kept room for
// every offer's notes, and ended in three empty lines where two more
// rows fit (the README's capture showed them). At most one empty line is
// left above the panel's bottom border.
func TestFirstScreenUsesItsRoom(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40))
	lines := strings.Split(screenText(m), "\n")
	bottom := -1
	for i, l := range lines {
		if strings.Contains(l, "╰") {
			bottom = i
		}
	}
	if bottom < 0 {
		t.Fatalf("no panel border:\n%s", strings.Join(lines, "\n"))
	}
	empty := 0
	for i := bottom - 1; i > 0; i-- {
		l := lines[i]
		at := strings.LastIndex(l, "│ ")
		if at < 0 || strings.TrimSpace(strings.Trim(l[at:], "│ ")) != "" {
			break
		}
		empty++
	}
	if empty > 1 {
		t.Errorf("%d empty lines above the panel's border:\n%s", empty, strings.Join(lines, "\n"))
	}
}
