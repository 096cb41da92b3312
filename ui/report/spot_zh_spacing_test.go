package report

import (
	"testing"
	"unicode"

	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"golang.org/x/text/language"
)

// TestSpotLineZhNoSpaceBetweenHan: the zh-CN Spot line puts no space
// between two Chinese characters (the punctuation rule TestPunctuationRule
// holds for the catalogue's strings), here where a duration ending in
// 小时 meets the text after it: "每 36.4 小时 保存一次检查点" read wrong.
func TestSpotLineZhNoSpaceBetweenHan(t *testing.T) {
	e := decide.SpotEstimate{ExpectedUSD: 153.43, P10USD: 151.5, P50USD: 153.39, P90USD: 155.28, ExpectedHours: 102.29,
		LostHoursPerInterrupt: 1.26, ExpectedInterruptions: 1.02, InterruptionsPerHour: 0.01, CheckpointEveryHours: 36.4, CheckpointWrites: 2}
	zh := []rune(SpotLineIn(i18n.New(language.SimplifiedChinese), &e, decide.SpotAssumptions{}))
	for i := 1; i+1 < len(zh); i++ {
		if zh[i] == ' ' && unicode.Is(unicode.Han, zh[i-1]) && unicode.Is(unicode.Han, zh[i+1]) {
			t.Errorf("space between %q and %q in %q", zh[i-1], zh[i+1], string(zh))
		}
	}
}
