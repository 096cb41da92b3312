package report

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
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

// TestSavingsListRankedOffer: a saving that is an offer the table already
// ranks (advice.Saving.Rank) is said as that row and why it ranks lower,
// not as a filter to set (walk49: "rent in DE saves $0.17 (4%) on
// primeintellect 8×a100-80gb in DE" under --country de, row 2 of the same
// table). Regions at one price share a row, so the row counts them once.
func TestSavingsListRankedOffer(t *testing.T) {
	one := &model.Instance{Provider: "lambda", Type: "gpu_1x_gh200", GPUCount: 1}
	eight := &model.Instance{Provider: "primeintellect", Type: "latitude__8xA100_80GB", GPUCount: 8}
	risky := &model.Instance{Provider: "aws", Type: "g6.xlarge", GPUCount: 1}
	rec := &model.Recommendation{Offers: []model.Offer{
		{Instance: one, Region: "us-east-1", Instances: 1, GPUs: 1, USDPerHour: 2.29, JobUSD: 3.98},
		{Instance: one, Region: "us-west-1", Instances: 1, GPUs: 1, USDPerHour: 2.29, JobUSD: 3.98}, // the same row, +1
		{Instance: eight, Region: "DE", Instances: 1, GPUs: 8, SizedGPUs: 1, USDPerHour: 8.28, JobUSD: 3.81},
		{Instance: risky, Region: "us-east-2", Instances: 1, GPUs: 1, USDPerHour: 0.8, JobUSD: 3.5, Verdict: model.VerdictBorderline, OOMChance: 0.15},
	}}
	savings := []advice.Saving{
		{Change: "run on l4", Kind: "gpu", SavingUSD: 0.48, SavingPct: 12, Rank: 4,
			Offer: &advice.SavingOffer{Provider: "aws", Region: "us-east-2", GPU: "l4", GPUs: 1}, OtherOffer: true},
		{Change: "rent in DE", Kind: "region", SavingUSD: 0.17, SavingPct: 4.2, Rank: 3,
			Offer: &advice.SavingOffer{Provider: "primeintellect", Region: "DE", GPU: "a100-80gb", GPUs: 8}, OtherOffer: true},
	}
	got := strings.Split(strings.TrimSuffix(SavingsListFor(nil, rec, savings, 6), "\n"), "\n")
	want := []string{
		"  row 3 (aws 1×l4 in us-east-2) is $0.48 (12%) cheaper but has about a 15% chance of running out of memory",
		"  row 2 (primeintellect 8×a100-80gb in DE) is $0.17 (4%) cheaper but rents 8 GPUs for a 1-GPU job",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	zh := SavingsListFor(i18n.New(language.SimplifiedChinese), rec, savings[1:], 6)
	if want := "  第 2 行（DE 的 primeintellect 8×a100-80gb）的作业便宜 $0.17（4%），但为 1 卡的作业租了 8 张 GPU\n"; zh != want {
		t.Errorf("zh-CN = %q, want %q", zh, want)
	}
}
