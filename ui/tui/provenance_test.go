package tui

import (
	"strings"
	"testing"
)

// TestHeaderPriceNote: the header says where the prices came from and
// suggests catalog update when they are stale; without a note it is as
// before.
func TestHeaderPriceNote(t *testing.T) {
	cat := testCatalog(t)
	for _, note := range []string{"", "(updated 2027-02-27, +2 overlays)", "(stale: gpuplan catalog update)"} {
		m := start(t, newTestApp(t, cat, Options{PriceNote: note}), size(120, 40))
		first := strings.SplitN(screenText(m), "\n", 2)[0]
		want := strings.TrimSpace("catalog " + cat.AsOf + " " + note)
		if !strings.HasSuffix(strings.TrimRight(first, " "), want) {
			t.Errorf("header %q does not end with %q", first, want)
		}
	}
}
