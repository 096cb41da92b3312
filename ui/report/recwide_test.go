package report

import (
	"bytes"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// layoutRec is TestRecommendNamesRowLayout's two offers: FSDP over 4
// V100s (another layout than the header's, so a strategy column) and one
// A30 in the asked layout, ranked by job cost.
func layoutRec() (model.Recommendation, model.Estimate) {
	w := model.Workload{Settings: model.Settings{Framework: model.PyTorch, Task: model.TaskLoRA, Precision: model.BF16,
		Optimizer: model.AdamW, GPUs: 1, Strategy: model.Single, MicroBatch: 1, SeqLen: 2048, GradAccum: 1, LoRARank: 16,
		LoRATargets: []string{"q", "k", "v", "o"}}, Model: model.Architecture{Name: "Qwen3 8B"}, BatchPerGPU: true}
	on := true
	w.Checkpointing, w.FlashAttention = &on, &on
	base := model.Estimate{Workload: w, Memory: model.Memory{Weights: 20.75 * model.GiB}}
	v100 := &model.GPU{Key: "v100-16gb", Name: "NVIDIA V100 SXM2 16GB", MemoryGiB: 16}
	a30 := &model.GPU{Key: "a30", Name: "NVIDIA A30", MemoryGiB: 24}
	fsdp := w
	fsdp.GPUs, fsdp.Strategy = 4, model.FSDP
	rec := model.Recommendation{Sort: model.SortJob, AutoGPUs: true, Considered: 2, Offers: []model.Offer{
		{Instance: &model.Instance{Provider: "primeintellect", Type: "datacrunch__4xV100_16GB__20__90", GPU: "v100-16gb", GPUCount: 4}, GPU: v100,
			Region: "FI", Instances: 1, GPUs: 4, Strategy: model.FSDP, NeedBytes: 12.25 * model.GiB, HeadroomPct: 19, Verdict: model.VerdictFits,
			Pricing: model.OnDemand, USDPerHour: 0.55, MonthlyUSD: 402, JobHours: 2.6, JobUSD: 1.44, HasJob: true, Estimate: &model.Estimate{Workload: fsdp}},
		{Instance: &model.Instance{Provider: "seeweb", Type: "ECS1GPU11", GPU: "a30", GPUCount: 1}, GPU: a30,
			Region: "it-fr2", Instances: 1, GPUs: 1, Strategy: model.Single, NeedBytes: 20.75 * model.GiB, HeadroomPct: 9, Verdict: model.VerdictFits,
			Pricing: model.OnDemand, USDPerHour: 0.29, MonthlyUSD: 212, JobHours: 8, JobUSD: 2.31, HasJob: true, Estimate: &model.Estimate{Workload: w}},
	}}
	return rec, base
}

// TestRecommendHiddenColumns: a table narrowed to fit says under it which
// columns it hid and that -o wide shows them, in the words of offers'
// footer (fresh-user walk: recommend at 80 columns dropped job time,
// region, $/month, headroom and strategy silently), and the header names
// the strategy column as shown only when it is; hidden, it says the
// column is hidden. The configurator's printed report (no flags: moreHint
// "") names the columns without -o wide. Width 0 (a pipe, -o wide)
// hides nothing and prints no such line.
func TestRecommendHiddenColumns(t *testing.T) {
	rec, base := layoutRec()
	zh := i18n.New(language.SimplifiedChinese)
	for _, tc := range []struct {
		lang       *i18n.Printer
		width      int
		hint       string
		header     string
		hiddenLine string // "" none
	}{
		{nil, 80, " (--limit 0 shows all)",
			"VRAM 20.75 GiB per GPU on 1 GPU before the search picks GPUs (each offer uses the GPU count it shows; some use another layout, which the hidden strategy column names); ranked by job",
			"Hidden to fit 80 columns: region, $/month, job time, headroom, strategy (-o wide\nshows them)."},
		{nil, 120, " (--limit 0 shows all)",
			"VRAM 20.75 GiB per GPU on 1 GPU before the search picks GPUs (each offer uses the GPU count it shows; the strategy column names another layout and its VRAM per GPU); ranked by job",
			"Hidden to fit 120 columns: $/month, headroom (-o wide shows them)."},
		{nil, 80, "",
			"VRAM 20.75 GiB per GPU on 1 GPU before the search picks GPUs (each offer uses the GPU count it shows; some use another layout, which the hidden strategy column names); ranked by job",
			"Hidden to fit 80 columns: region, $/month, job time, headroom, strategy."},
		{nil, 0, " (--limit 0 shows all)",
			"VRAM 20.75 GiB per GPU on 1 GPU before the search picks GPUs (each offer uses the GPU count it shows; the strategy column names another layout and its VRAM per GPU); ranked by job",
			""},
		{zh, 80, " (--limit 0 shows all)",
			"显存每卡 20.75 GiB，共 1 块 GPU，按搜索选定 GPU 数之前的布局计（每个报价按其所示 GPU 数计；部分报价用其他布局，由已隐藏的策略一列给出）；按作业费用排序",
			"为适应 80 列宽已隐藏：地域、$/月、作业时长、余量、策略（-o wide 显示全部列）。"},
		{zh, 120, " (--limit 0 shows all)",
			"显存每卡 20.75 GiB，共 1 块 GPU，按搜索选定 GPU 数之前的布局计（每个报价按其所示 GPU 数计；策略一列给出报价所用的其他布局及其每卡显存）；按作业费用排序",
			"为适应 120 列宽已隐藏：$/月、作业时长、余量（-o wide 显示全部列）。"},
	} {
		var b bytes.Buffer
		r := &Renderer{Profile: colorprofile.NoTTY, Plain: true, Lang: tc.lang}
		if err := WriteRecommendHint(&b, r, &rec, &base, 10, tc.width, tc.hint); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		if !strings.Contains(got, "\n"+tc.header+"\n") {
			t.Errorf("%d columns, hint %q: header, want\n%s\nin\n%s", tc.width, tc.hint, tc.header, got)
		}
		hidden := strings.Contains(got, "Hidden") || strings.Contains(got, "隐藏：")
		if tc.hiddenLine == "" && hidden || tc.hiddenLine != "" && !strings.Contains(got, "\n"+tc.hiddenLine+"\n") {
			t.Errorf("%d columns, hint %q: hidden-columns line, want %q in\n%s", tc.width, tc.hint, tc.hiddenLine, got)
		}
		for i, l := range strings.Split(got, "\n") {
			if tc.width > 0 && i > 5 && i < 10 && lipgloss.Width(l) > tc.width {
				t.Errorf("%d columns: table line %q is %d cells", tc.width, l, lipgloss.Width(l))
			}
		}
	}
}

// TestLateNoteCountsRows: the "~" notes under recommend's table count its
// rows, the marks the reader sees, not the offers behind them: three late
// offers, two of them the same type at one price in two regions, make two
// rows ("r1 +1" and another type), so "(2 rows)" in both languages
// (fresh-user walk: "~ job cost (98 offers)" where JSON had 185 late
// offers making 98 rows).
func TestLateNoteCountsRows(t *testing.T) {
	g := &model.GPU{Key: "v100", Name: "V100", MemoryGiB: 16}
	w := model.Workload{Settings: model.Settings{Framework: model.PyTorch, Task: model.TaskLoRA, Precision: model.BF16,
		Optimizer: model.AdamW, GPUs: 1, Strategy: model.Single, MicroBatch: 1, SeqLen: 2048, GradAccum: 1}, Model: model.Architecture{Name: "M"}}
	e := &model.Estimate{Workload: w, Hours: 28.6, HasTime: true, TimeBand: [2]float64{16.9, 48.4}}
	g1, g2 := &model.Instance{Provider: "p", Type: "g.1", GPU: "v100", GPUCount: 1}, &model.Instance{Provider: "p", Type: "g.2", GPU: "v100", GPUCount: 1}
	offer := func(in *model.Instance, region string) model.Offer {
		return model.Offer{Instance: in, GPU: g, Region: region,
			Instances: 1, GPUs: 1, Strategy: model.Single, HeadroomPct: 5, Verdict: model.VerdictFits, Estimate: e, Pricing: model.OnDemand,
			USDPerHour: 0.14, JobHours: 28.6, JobUSD: 4, HasJob: true, LateChance: 0.44, DeadlineHours: 30}
	}
	rec := model.Recommendation{Sort: model.SortJob, Considered: 3, Offers: []model.Offer{offer(g1, "r1"), offer(g1, "r2"), offer(g2, "r1")}}
	for _, tc := range []struct {
		lang *i18n.Printer
		want string
	}{
		{nil, "~ job time (2 rows): about 45% chance of missing the 30 h deadline"},
		{i18n.New(language.SimplifiedChinese), "~ 作业时长（2 行）：错过 30 小时截止时间的概率约 45%"},
	} {
		var b bytes.Buffer
		if err := WriteRecommend(&b, &Renderer{Profile: colorprofile.NoTTY, Plain: true, Lang: tc.lang}, &rec, e, 10, 0); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); !strings.Contains(got, tc.want) || strings.Count(got, "~28.6") != 2 {
			t.Errorf("want %q and two marked rows in\n%s", tc.want, got)
		}
	}
}
