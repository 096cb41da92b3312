package tui

import (
	"strings"
	"testing"
)

// A value pasted by mistake is quoted cut at 40 characters and "…" (attack
// round 13: 200,000 digits in "Batch size" were quoted whole).
func TestParseWholeClipsValue(t *testing.T) {
	_, err := parseWhole("batch", strings.Repeat("9", 200000), 1, 1<<20)
	want := `batch: want a whole number from 1 to 1048576, got "` + strings.Repeat("9", 40) + `…"`
	if err == nil || err.Error() != want {
		t.Errorf("error = %.200v\nwant %s", err, want)
	}
	if _, err := parseWhole("batch", "x", 1, 8); err == nil || !strings.HasSuffix(err.Error(), `got "x"`) {
		t.Errorf("a short value: %v", err)
	}
}
