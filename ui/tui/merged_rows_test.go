package tui

import (
	"strings"
	"testing"
)

// New-user walk (ux33): the panel said "Offers: 2 fit" over one row, an
// offer in two regions at one price ("us-east-1 +1"), and read as a
// count that lost an offer. A list of every offer that fits says why it
// has fewer rows, wide and compact, in English and Chinese; a list cut
// short for room says nothing more (ctrl+o shows all).
func TestPanelCountSaysMergedRows(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts Options
		w, h int
		gpus []string
		want string // "" for no note
	}{
		{"wide", Options{}, 120, 40, []string{"a100-40gb"}, "Offers: 2 fit · 1 row, +1 in other regions · ranked by job cost"},
		{"compact", Options{}, 80, 24, []string{"a100-40gb"}, "2 offers fit · 1 row, +1 in other regions"},
		{"Chinese wide", zhOptions(), 120, 40, []string{"a100-40gb"}, "报价：2 个放得下 · 1 行，其他地域另有 1 个"},
		{"Chinese compact", zhOptions(), 80, 24, []string{"a100-40gb"}, "2 个报价放得下 · 1 行，其他地域另有 1 个"},
		{"rows are offers", Options{}, 120, 40, []string{"h100-pcie"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), tt.opts), size(tt.w, tt.h))
			m.a.GPUKeys = tt.gpus
			m.recompute()
			m.layout()
			text := flat(screenText(m))
			if tt.want == "" {
				if strings.Contains(text, "in other regions") || strings.Contains(text, "其他地域") {
					t.Errorf("a note on rows that are the offers:\n%s", screenText(m))
				}
				return
			}
			if !strings.Contains(text, tt.want) {
				t.Errorf("the count does not say %q:\n%s", tt.want, screenText(m))
			}
		})
	}
}
