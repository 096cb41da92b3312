package cli

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// TestOffersFitColumns: gpuplan offers at COLUMNS=80 (a terminal's width,
// as recommend takes it) prints tables no wider, in English and Chinese,
// and one line naming the hidden columns; -o wide prints them all, on a
// pipe as a pipe without COLUMNS does, which scripts read.
func TestOffersFitColumns(t *testing.T) {
	run := func(columns string, args ...string) string { t.Helper(); return runColumns(t, columns, args...) }
	offers := []string{"offers", "H100:8", "--providers", "aws,azure,lambda"}
	for _, lang := range []string{"en", "zh-CN"} {
		args := append([]string{"--lang", lang}, offers...)
		out := run("80", args...)
		lines := strings.Split(out, "\n")
		if len(lines) < 3 || !strings.HasPrefix(lines[1], "─") {
			t.Fatalf("%s COLUMNS=80: want a table:\n%s", lang, out)
		}
		for _, l := range lines[:5] { // the table: header, rule, 3 rows
			if w := lipgloss.Width(l); w > 80 {
				t.Errorf("%s COLUMNS=80: a line %d cells wide: %q", lang, w, l)
			}
		}
		if !strings.Contains(out, "-o wide") {
			t.Errorf("%s COLUMNS=80: no line names the hidden columns:\n%s", lang, out)
		}
		// On a pipe, COLUMNS or not, -o wide prints what a plain pipe
		// prints: every column, no rule, no line ending in a blank.
		wide := run("80", append(args, "-o", "wide")...)
		if wide != run("", args...) || strings.Contains(wide, "-o wide") || strings.Contains(wide, " \n") || strings.Contains(wide, "─") {
			t.Errorf("%s -o wide at COLUMNS=80 on a pipe: want the plain pipe's lines:\n%s", lang, wide)
		}
	}
	piped := run("", offers...)
	if strings.Contains(piped, "-o wide") || !strings.Contains(strings.SplitN(piped, "\n", 2)[0], "RAM GiB/GPU") {
		t.Errorf("piped: want every column:\n%s", piped)
	}
}
