package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/ui/i18n"
)

// TestOptimizerColumn (walk37): the optimizer page's descriptions start
// in one column, in display cells, in English and Chinese: the labels
// were padded by hand to 12 characters, and "SGD+momentum" (12) and
// "分页 AdamW 8-bit" (16 cells) ran past it, "分页 AdamW" stopped short.
func TestOptimizerColumn(t *testing.T) {
	for _, tc := range []struct {
		lang  language.Tag
		whats []string // how each description starts
	}{
		{language.English, []string{"8 bytes", "no state", "4 bytes", "factored", "2 bytes", "8-bit:"}},
		{language.SimplifiedChinese, []string{"每个参数", "无状态", "分解的二阶矩", "8-bit："}},
	} {
		lang := i18n.New(tc.lang)
		opts := optimizerOptions(lang.T)
		if len(opts) != 9 {
			t.Fatalf("%v: %d options", tc.lang, len(opts))
		}
		col := -1
		for _, o := range opts {
			at := -1
			for _, w := range tc.whats {
				if i := strings.Index(o.Key, w); i > 0 && (at < 0 || i < at) {
					at = i
				}
			}
			if at < 0 || o.Key[at-1] != ' ' {
				t.Errorf("%v: %q: no description after a space", tc.lang, o.Key)
				continue
			}
			c := ansi.StringWidth(o.Key[:at])
			if col < 0 {
				col = c
			}
			if c != col {
				t.Errorf("%v: %q: its description starts at cell %d, the others' at %d", tc.lang, o.Key, c, col)
			}
		}
	}
}
