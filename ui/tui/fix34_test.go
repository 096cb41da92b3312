package tui

import (
	"strings"
	"testing"

	"golang.org/x/text/language"
)

// The length's message says what the configurator reads: 8k is 8000
// (config.ParseTokens), as the command line says; and a length the
// answers refuse (1.5K: a binary suffix takes a whole number) stops Tab
// and enter on its page, as a bad batch size does.
func TestLengthMessageAndWalk(t *testing.T) {
	for _, tt := range []struct {
		lang language.Tag
		want string
	}{
		{language.English, `sequence length: want a whole number of tokens from 1 to 16777216 such as 2048, 8K (8192) or 8k (8000), got "1.5K"`},
		{language.SimplifiedChinese, "如 2048、8K（8192）或 8k（8000），收到"},
	} {
		m := start(t, newTestApp(t, testCatalog(t), Options{Lang: tt.lang}), size(120, 40))
		m = toPage(t, m, "Batch and length")
		page := m.wiz.focusedPage()
		m = drive(t, m, tab)
		m = drive(t, m, replace("1.5K")...)
		if _, err := m.a.config(); err == nil || !strings.Contains(errIn(m.lang, err), tt.want) {
			t.Errorf("answers' error %v, want %q", err, tt.want)
		}
		for _, k := range msgs(tab, enter) {
			m = drive(t, m, k)
			if m.wiz.focusedPage() != page {
				t.Fatalf("%v walked past the invalid length to page %q", k, m.wiz.pages[m.wiz.focusedPage()].title)
			}
		}
		if text := screenText(m); !strings.Contains(strings.ReplaceAll(text, "\n", ""), "8k") {
			t.Errorf("the footer does not say why:\n%s", text)
		}
		// 8k and 8K are lengths.
		for _, v := range []string{"8k", "8K"} {
			if _, err := m.a.parseLength(v); err != nil {
				t.Errorf("%s: %v", v, err)
			}
		}
	}
}
