package report

import (
	"regexp"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// narrowOfferRows are the rows recommend --model llama-3.1-8b --task
// qlora printed at the top of the embedded catalog (2026-12), with a
// precision note, a long instance type and a multi-node offer.
func narrowOfferRows() [][]string {
	return [][]string{
		{"seeweb", "ECS1GPU", "it-fr2", "1×quadro-rtx-6000 ↺amp-fp16", "$0.29", "$212", "—", "—", "60%"},
		{"primeintellect", Truncate("datacrunch__1xRTX6000Ada_48GB__10__60", 26), "FI", "1×rtx-6000-ada", "$0.83", "$606", "—", "—", "62%"},
		{"runpod", "1x_RTXA5000_SECURE", "CA +7", "1×rtx-a5000", "$0.29", "$212", "—", "—", "40%"},
		{"aws", "p5.48xlarge", "us-east-1 +2", "16×h100-sxm (2 nodes)", "$98.32", "$71,774", "—", "—", "77%"},
		{"oci", "BM.GPU.RTXPRO.8", "af-casablanca-1 +2", "1 of 8×rtx-pro-6000", "$36.00", "$26,280", "—", "—", "88%"},
	}
}

// TestNarrowTableKeepsGPUKeys: at 80 columns, in English and Chinese
// (whose headers are wide: CJK runes are two cells), the offers table
// fits the terminal and every GPU key is whole: the precision note's
// words and the instance type give way first. It was 91 cells wide in
// Chinese, so a terminal wrapped it, cutting "1×quadro-rtx-6000 ↺amp-fp16"
// across two lines.
func TestNarrowTableKeepsGPUKeys(t *testing.T) {
	keys := []string{"quadro-rtx-6000", "rtx-6000-ada", "rtx-a5000", "h100-sxm", "rtx-pro-6000"}
	for _, lang := range []*i18n.Printer{nil, i18n.New(language.SimplifiedChinese)} {
		for _, width := range []int{80, 72} {
			r := &Renderer{Lang: lang}
			out, _ := fitTable(r, OfferHeadersIn(lang), narrowOfferRows(), width, model.SortPrice)
			for _, l := range strings.Split(out, "\n") {
				if w := lipgloss.Width(l); w > width {
					t.Errorf("%s at %d: line of %d cells: %q", lang.Tag(), width, w, l)
				}
			}
			for _, k := range keys {
				if !regexp.MustCompile(`×` + regexp.QuoteMeta(k) + `( |$)`).MatchString(out) {
					t.Errorf("%s at %d: GPU key %q not whole:\n%s", lang.Tag(), width, k, out)
				}
			}
			if !strings.Contains(out, "×quadro-rtx-6000 ↺") {
				t.Errorf("%s at %d: the precision mark is gone:\n%s", lang.Tag(), width, out)
			}
		}
	}
}

func TestCutGPUs(t *testing.T) {
	tests := []struct {
		cell, key string
		n         int
		want      string
	}{
		{"1×a100-80gb", "a100-80gb", 11, "1×a100-80gb"},                               // fits
		{"1×quadro-rtx-6000 ↺amp-fp16", "quadro-rtx-6000", 20, "1×quadro-rtx-6000 ↺"}, // the note's words first
		{"2×a100-80gb ↺amp-fp16 FSDP", "a100-80gb", 20, "2×a100-80gb ↺ FSDP"},         // what follows the note stays
		{"1×quadro-rtx-6000 ↺amp-fp16", "quadro-rtx-6000", 16, "1×quadro-rtx… ↺"},     // then whole words of the key
		{"16×h100-sxm (2 nodes)", "h100-sxm", 18, "16×h100… (2 nodes)"},               // the count and nodes stay
		{"1 of 8×rtx-pro-6000-ws", "rtx-pro-6000-ws", 18, "1 of 8×rtx-pro…"},          // 7 + 8 cells: "rtx-pro-6000…" is 13
		{"1 块/8×a100-80gb", "a100-80gb", 12, "1 块/8×a100…"},                           // CJK: 2 cells a rune
		{"1×l40s", "l40s", 3, "1×l40s"},                                               // one word: never cut
		{"1×rtx-pro-6000", "rtx-pro-6000", 5, "1×rtx…"},                               // at least the first word
		{"8× rtx-pro-6000", "rtx-pro-6000", 12, "8× rtx-pro…"},                        // the market's cells
	}
	for _, tt := range tests {
		if got := CutGPUs(tt.cell, tt.key, tt.n); got != tt.want {
			t.Errorf("CutGPUs(%q, %d) = %q, want %q", tt.cell, tt.n, got, tt.want)
		}
	}
}
