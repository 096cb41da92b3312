package tui

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// A panel note wraps to two lines rather than losing its point at the
// edge ("about 10% chance of ru…", new-user trial), and never takes more
// than two.
func TestPanelNoteLinesWrapTwoAtMost(t *testing.T) {
	note := "1×v100-16gb ↺amp-fp16 at $1.54 for the job: about 10% chance of running out of memory; ranked after the offers that fit"
	for _, tt := range []struct {
		width, lines int
		last         string // the note's end, when it is shown whole
	}{
		{200, 1, "offers that fit"},
		{67, 2, "offers that fit"},
		{30, 2, ""}, // four lines' worth: the second line is cut

	} {
		got := panelNoteLines([]string{note}, tt.width)
		if len(got) != tt.lines {
			t.Errorf("width %d: %d lines %q, want %d", tt.width, len(got), got, tt.lines)
			continue
		}
		for _, l := range got {
			if w := lipgloss.Width(l); w > tt.width {
				t.Errorf("width %d: line %q is %d cells", tt.width, l, w)
			}
		}
		joined := strings.TrimSpace(strings.Join(got, " "))
		if tt.last != "" && !strings.HasSuffix(joined, tt.last) {
			t.Errorf("width %d: %q does not end with %q", tt.width, joined, tt.last)
		}
		if tt.last == "" && (!strings.HasSuffix(joined, "…") || strings.Contains(got[1], "  ")) {
			t.Errorf("width %d: second line %q is not the rest cut with an ellipsis", tt.width, got[1])
		}
	}
	if got := panelNoteLines([]string{"a", "b"}, 40); len(got) != 2 {
		t.Errorf("two short notes: %q", got)
	}
}
