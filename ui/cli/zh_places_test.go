package cli

import (
	"strings"
	"testing"
)

// TestChinesePlaceNamesAndProviderNames (a new user's walk, zh): --country
// 中国/德国/日本 answered "did you mean United Arab Emirates (AE)?" and
// --regions 亚洲 was no continent; CLDR's Simplified Chinese names are
// read now. --providers datacrunch names its new name, verda; foo no
// longer suggests do (two of three letters changed).
func TestChinesePlaceNamesAndProviderNames(t *testing.T) {
	for _, tc := range []struct{ a, b []string }{
		{[]string{"--country", "德国"}, []string{"--country", "DE"}},
		{[]string{"--country", "日本"}, []string{"--country", "jp"}},
		{[]string{"--country", "美国"}, []string{"--country", "us"}},
		{[]string{"--regions", "亚洲"}, []string{"--regions", "asia"}},
		{[]string{"--regions", "欧洲"}, []string{"--regions", "europe"}},
		{[]string{"--regions", "北美"}, []string{"--regions", "north-america"}},
	} {
		ca, oa, ea := runCLI(t, append([]string{"offers", "H100"}, tc.a...)...)
		cb, ob, _ := runCLI(t, append([]string{"offers", "H100"}, tc.b...)...)
		if ca != 0 || cb != 0 || oa != ob || !strings.Contains(oa, "offers (") {
			t.Errorf("%v: exit %d, stderr %q; want the same table as %v", tc.a, ca, ea, tc.b)
		}
	}
	if code, _, errs := runCLI(t, "offers", "--country", "中国"); code != 0 || strings.Contains(errs, "United Arab Emirates") || !strings.Contains(errs, "no cloud region in China") {
		t.Errorf("--country 中国: exit %d, stderr %q; want China read, its note", code, errs)
	}
	if code, _, errs := runCLI(t, "offers", "--country", "火星"); code != 2 || strings.Contains(errs, "did you mean") {
		t.Errorf("--country 火星: exit %d, stderr %q; want no suggestion", code, errs)
	}
	for _, cmd := range [][]string{{"offers"}, {"recommend", "--model", "qwen3-8b", "--task", "qlora"}} {
		code, _, errs := runCLI(t, append(cmd, "--providers", "datacrunch")...)
		if code != 2 || !strings.Contains(errs, "its new name verda; write --providers verda") {
			t.Errorf("%v --providers datacrunch: exit %d, stderr %q", cmd, code, errs)
		}
	}
	if code, _, errs := runCLI(t, "offers", "--providers", "foo"); code != 2 || strings.Contains(errs, "did you mean") {
		t.Errorf("--providers foo: exit %d, stderr %q; want no suggestion", code, errs)
	}
	if _, _, errs := runCLI(t, "offers", "--providers", "lamda"); !strings.Contains(errs, "did you mean lambda?") {
		t.Errorf("--providers lamda: stderr %q; want lambda suggested", errs)
	}
}
