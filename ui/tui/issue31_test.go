package tui

import (
	"fmt"
	"strings"
	"testing"
)

// lost "inference (serving)". The page reads as a fresh start at 120×40.
func TestResizeBackWorkloadPage(t *testing.T) {
	fresh := screenText(start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)))
	for _, small := range [][2]int{{60, 20}, {80, 24}, {80, 12}} {
		t.Run(fmt.Sprintf("%dx%d", small[0], small[1]), func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), size(small[0], small[1]), size(120, 40))
			got := screenText(m)
			if !strings.Contains(got, "inference (serving)") || !strings.Contains(got, "JAX / Flax") {
				t.Errorf("a list lost options after the resize:\n%s", got)
			}
			if got != fresh {
				t.Errorf("back at 120×40:\n%s\nwant, as a fresh start:\n%s", got, fresh)
			}
		})
	}
}
