package tui

import (
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"github.com/gpuplan/gpuplan/ui/report"
)

// New-user walk (walk35): the market browser's "a100" listed the
// A100 40GB rows alone with no word of the 80GB part, where gpuplan
// offers a100 notes "also: A100-80GB (N offers)…". The browser's note
// line says the same variants (report.SiblingList), in English and
// Chinese, and none for a line that names no GPU.
func TestBrowseSaysOtherVariants(t *testing.T) {
	cat := testCatalog(t)
	q, err := parseBrowseLine("a100", cat)
	if err != nil {
		t.Fatal(err)
	}
	q.Providers = newTestApp(t, cat, Options{}).browse.base
	sibs := market.Siblings(cat, q)
	if len(sibs) == 0 || sibs[0].Ask != "A100-80GB" {
		t.Fatalf("the test catalog's a100 siblings: %+v; the test needs A100-80GB offers", sibs)
	}
	for _, lang := range []language.Tag{language.English, language.SimplifiedChinese} {
		for _, w := range []int{120, 80} {
			m := start(t, newTestApp(t, cat, Options{Lang: lang}), size(w, 40))
			m = drive(t, m, msgs(ctrl('b'), typed("a100"))...)
			p := i18n.New(lang)
			want := report.SiblingList(p, sibs)
			if !strings.Contains(screenText(m), want) {
				t.Errorf("%s %d columns: the browser does not say %q:\n%s", lang, w, want, screenText(m))
			}
			m = drive(t, m, msgs(replace("vram=40GB+"))...)
			if strings.Contains(screenText(m), want) {
				t.Errorf("%s: the variants stay said for a line naming no GPU:\n%s", lang, screenText(m))
			}
		}
	}
}
