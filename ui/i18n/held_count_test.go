package i18n_test

import (
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// TestHeldCountsTranslated: the counts of held overlay prices, one and
// several, as the load says them and as --trust-overlay rewrites them
// (model.Trusted), reach a Chinese user in Chinese. Their keys are
// constants TestEveryMessageKeyTranslated does not see.
func TestHeldCountsTranslated(t *testing.T) {
	var ws []model.Message
	for _, n := range []int{1, 3} {
		for _, k := range []string{model.HeldPrices, model.HeldPricesEmbedded, model.HeldDiscounts} {
			ws = append(ws, model.HeldCount(k, "f.toml", n))
		}
	}
	ws = append(ws, model.Trusted(ws)...)
	p := i18n.NewTracing(language.SimplifiedChinese)
	for _, w := range ws {
		if s := p.Message(w); !strings.Contains(s, "疑似伪造或录错") {
			t.Errorf("%q: Chinese %q", w, s)
		}
	}
	if u := p.Untranslated(); len(u) > 0 {
		t.Errorf("no Chinese for %q", u)
	}
}
