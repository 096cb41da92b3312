package cli

import (
	"strings"
	"testing"
)

// TestNoOffersFiltersTranslated: the filters a search found no instance
// for are said in the user's language, each piece and the hint (a new
// user's zh-CN recommend --country cn read "…符合 countries cn, pricing
// on-demand (list them with gpuplan catalog instances)"); English keeps
// its words.
func TestNoOffersFiltersTranslated(t *testing.T) {
	for _, tt := range []struct{ lang, want string }{
		{"zh-CN", "价格目录中没有实例符合国家 cn，计费方式为按需实例（列表：gpuplan catalog instances）"},
		{"en", "no instance in the catalog matches countries cn, pricing on-demand (list them with gpuplan catalog instances)"},
	} {
		code, _, errOut := runCLI(t, "--lang", tt.lang, "recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--country", "cn")
		if code == 0 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: exit %d, %q; want %q", tt.lang, code, errOut, tt.want)
		}
		if tt.lang == "zh-CN" && (strings.Contains(errOut, "countries") || strings.Contains(errOut, "pricing") || strings.Contains(errOut, "on-demand") || strings.Contains(errOut, "list them")) {
			t.Errorf("zh-CN: English left in %q", errOut)
		}
	}
}
