package cli

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// TestRecommendFitColumns: gpuplan recommend at COLUMNS=80 and 120 fits
// its table and says under it which columns it hid (offers' footer,
// TestOffersFitColumns), in English and Chinese; -o wide prints every
// column whatever the width (as COLUMNS=1000; a pipe without COLUMNS
// hides none either), and is
// offered by completion and named in the Chinese help (fresh-user walk:
// `--output "wide": want table, json or csv`).
func TestRecommendFitColumns(t *testing.T) {
	run := func(columns string, args ...string) string { t.Helper(); return runColumns(t, columns, args...) }
	rec := []string{"recommend", "--model", "llama-3.1-8b", "--task", "qlora", "--dataset-tokens", "200M", "--deadline-hours", "14", "--limit", "3"}
	hiddenLine := map[string]string{"en": "Hidden to fit ", "zh-CN": "列宽已隐藏："}
	piped := run("", rec...)
	if strings.Contains(piped, "-o wide") {
		t.Errorf("piped: want every column, no hidden-columns line:\n%s", piped)
	}
	for _, lang := range []string{"en", "zh-CN"} {
		args := append([]string{"--lang", lang}, rec...)
		for _, columns := range []string{"80", "120"} {
			out := run(columns, args...)
			lines := strings.Split(out, "\n")
			at := -1
			for i, l := range lines {
				if strings.HasPrefix(l, "─") {
					at = i
					break
				}
			}
			if at < 1 {
				t.Fatalf("%s COLUMNS=%s: want a table:\n%s", lang, columns, out)
			}
			for _, l := range lines[at-1 : at+4] { // header, rule, 3 rows
				if w := lipgloss.Width(l); columns == "80" && w > 80 || w > 120 {
					t.Errorf("%s COLUMNS=%s: a line %d cells wide: %q", lang, columns, w, l)
				}
			}
			if !strings.HasPrefix(lines[at+4], hiddenLine[lang]) && !strings.Contains(lines[at+4], hiddenLine[lang]) || !strings.Contains(out, "-o wide") {
				t.Errorf("%s COLUMNS=%s: no line under the table names the hidden columns:\n%s", lang, columns, out)
			}
			if wide := run(columns, append(args, "-o", "wide")...); wide != run("1000", args...) || strings.Contains(wide, "-o wide") {
				t.Errorf("%s -o wide at COLUMNS=%s: want every column, as at 1000 columns:\n%s", lang, columns, wide)
			}
		}
	}
	if got := run("", "__complete", "recommend", "-o", ""); !strings.Contains(got, "\nwide\n") {
		t.Errorf("completion of recommend -o: want wide:\n%s", got)
	}
	if got := run("", "--lang", "zh-CN", "recommend", "--help"); !strings.Contains(got, "输出格式：table、json、csv 或 wide（--json 即 -o json）") {
		t.Errorf("Chinese help: want -o wide named:\n%s", got)
	}
}
