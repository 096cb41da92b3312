package report

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/ui/i18n"
	"golang.org/x/text/language"
)

// TestSavingsListNamesOffer: a saving priced on another offer than the
// cost now names it (provider, GPUs, region), so "pay spot" where the
// current provider has no spot price is not read as that provider's spot
// price; one priced on a borderline offer says its chance of running out
// of memory; one on the same offer that fits says nothing more; a
// provider whose regions say where a price applies, not where a type is
// offered (Lambda), has no region named (walk49: "in asia-northeast-1" was
// the first of 17 by name). In Chinese too.
func TestSavingsListNamesOffer(t *testing.T) {
	chance := 0.05
	savings := []advice.Saving{
		{Change: "pay spot instead of on-demand", SavingUSD: 8.05, SavingPct: 62,
			Offer: &advice.SavingOffer{Provider: "verda", Region: "FIN-03", GPU: "b200", GPUs: 8}, OtherOffer: true, OOMChance: &chance},
		{Change: "run on b200", SavingUSD: 4.8, SavingPct: 37,
			Offer: &advice.SavingOffer{Provider: "lambda", Region: "us-east-1", GPU: "b200", GPUs: 1}, OtherOffer: true},
		{Change: "8-bit AdamW states (bitsandbytes)", SavingUSD: 0.45, SavingPct: 3,
			Offer: &advice.SavingOffer{Provider: "do", Region: "atl1", GPU: "mi300x", GPUs: 8}},
	}
	got := strings.Split(strings.TrimSuffix(SavingsList(savings, 6), "\n"), "\n")
	want := []string{
		"saves $8.05 (62%) on verda 8×b200 in FIN-03 (borderline: 5% chance of running out of memory)",
		"saves $4.80 (37%) on lambda 1×b200",
		"saves $0.45 (3%)",
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasSuffix(got[i], want[i]) {
			t.Errorf("line %d = %q, want it to end %q", i, got[i], want[i])
		}
	}
	zh := strings.Split(SavingsListIn(i18n.New(language.SimplifiedChinese), savings, 6), "\n")
	if !strings.HasSuffix(zh[0], "节省 $8.05（62%），按 verda 在 FIN-03 的 8×b200 计（显存紧张：约 5% 的概率显存不足）") {
		t.Errorf("zh-CN line 0 = %q, want the offer and the chance in Chinese", zh[0])
	}
	if !strings.HasSuffix(zh[1], "节省 $4.80（37%），按 lambda 的 1×b200 计") {
		t.Errorf("zh-CN line 1 = %q, want the lambda offer without a region in Chinese", zh[1])
	}
}
