package report

import (
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

// TestCutRegion: the "+N" of collapsed regions survives any cut.
func TestCutRegion(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"us-east-1", 18, "us-east-1"},
		{"asia-northeast-1 +16", 18, "asia-northeas… +16"},
		{"asia-northeast-1 +16", 30, "asia-northeast-1 +16"},
		{"europe-west4 +2", 10, "europe… +2"},
		{"us-east-1 +1", 12, "us-east-1 +1"},
		{"australia-southeast1", 18, "australia-southea…"},
	} {
		if got := CutRegion(tt.in, tt.n); got != tt.want {
			t.Errorf("CutRegion(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// TestReasonSummaryCounts checks the summary line's nouns agree with
// their counts: "1 offer", "1 other host", never "1 offers".
func TestReasonSummaryCounts(t *testing.T) {
	gpuMemory := model.ReasonCount{Kind: model.RejectKind("GPU memory"), Count: 2}
	cases := []struct {
		name       string
		offers     int
		considered int
		reasons    []model.ReasonCount
		want       string
	}{
		{"one offer, one other host", 1, 4, []model.ReasonCount{gpuMemory}, "1 offer of 4 priced; did not pass: 2 GPU memory; 1 other host of a GPU already listed in the same region left out"},
		{"many of both", 2, 6, []model.ReasonCount{gpuMemory}, "2 offers of 6 priced; did not pass: 2 GPU memory; 2 other hosts of a GPU already listed in the same region left out"},
		{"none", 0, 2, []model.ReasonCount{gpuMemory}, "0 offers of 2 priced; did not pass: 2 GPU memory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &model.Recommendation{Offers: make([]model.Offer, c.offers), Considered: c.considered, Reasons: c.reasons}
			if got := ReasonSummary(rec); got != c.want {
				t.Errorf("ReasonSummary:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestOfferBorderline: a borderline offer says so in its JSON verdict,
// its table headroom ("~") and the note under the table, as estimate's
// "~ borderline" does; a fitting one carries none of them.
func TestOfferBorderline(t *testing.T) {
	g := &model.GPU{Key: "l4", Name: "L4", MemoryGiB: 22.5}
	inst := &model.Instance{Provider: "p", Type: "g.1", GPU: "l4", GPUCount: 1}
	for _, tt := range []struct {
		verdict    model.FitVerdict
		microBatch int
		headroom   string
		note       string
		oom        float64
	}{
		{model.VerdictBorderline, 4, "~5%", "~ borderline (1 row): the 90% band reaches 24.13 GiB per GPU, past the usable VRAM (the 5% margin kept free); about 30% chance of running out of memory, that is of needing more than all the driver exposes; leave room or use a smaller micro-batch", 0.31},
		// At micro-batch 1 there is no smaller one to advise.
		{model.VerdictBorderline, 1, "~5%", "~ borderline (1 row): the 90% band reaches 24.13 GiB per GPU, past the usable VRAM (the 5% margin kept free); about 30% chance of running out of memory, that is of needing more than all the driver exposes; leave room", 0.31},
		{model.VerdictFits, 4, "5%", "", 0},
	} {
		e := &model.Estimate{MemoryBand: [2]float64{18 * model.GiB, 24.13 * model.GiB}}
		e.Workload.MicroBatch = tt.microBatch
		o := model.Offer{Instance: inst, GPU: g, Region: "r", Instances: 1, GPUs: 1, HeadroomPct: 5, Verdict: tt.verdict, Estimate: e, OOMChance: tt.oom}
		j := NewOfferJSON(&o, "")
		if j.Verdict != string(tt.verdict) {
			t.Errorf("JSON verdict %q, want %q", j.Verdict, tt.verdict)
		}
		if (j.OOMChance != nil) != (tt.verdict == model.VerdictBorderline) || j.OOMChance != nil && *j.OOMChance != 0.3 {
			t.Errorf("%s: JSON oom_chance %v, want 0.3 (0.31 to the nearest 0.05) only when borderline", tt.verdict, j.OOMChance)
		}
		if row := OfferRow(&o); row[len(row)-1] != tt.headroom {
			t.Errorf("%s: headroom cell %q, want %q", tt.verdict, row[len(row)-1], tt.headroom)
		}
		if got := borderlineTableNote(nil, []model.Offer{o}); got != tt.note {
			t.Errorf("%s: note\n got %q\nwant %q", tt.verdict, got, tt.note)
		}
	}
}

// TestBorderlineNoteLayouts: borderline rows on different layouts have
// different bands, so the note gives the range of their tops, not the
// highest as if every row's (fresh-user walk: the 1-GPU row's 319.43 GiB
// quoted for FSDP ×8 rows whose band tops at 205.68 GiB), in both
// languages; and each offer's JSON carries its own top.
func TestBorderlineNoteLayouts(t *testing.T) {
	g := &model.GPU{Key: "b200", Name: "B200", MemoryGiB: 180}
	offer := func(gpus int, top float64) model.Offer {
		e := &model.Estimate{MemoryBand: [2]float64{top / 2 * model.GiB, top * model.GiB}}
		e.Workload.MicroBatch = 4
		inst := &model.Instance{Provider: "p", Type: "g", GPU: "b200", GPUCount: gpus}
		return model.Offer{Instance: inst, GPU: g, Region: "r", Instances: 1, GPUs: gpus, Verdict: model.VerdictBorderline, Estimate: e, OOMChance: 0.1}
	}
	offers := []model.Offer{offer(8, 205.68), offer(1, 319.43)}
	want := "~ borderline (2 rows): the 90% band reaches 205.68–319.43 GiB per GPU, each row on its own layout, past the usable VRAM (the 5% margin kept free); about 10% chance of running out of memory, that is of needing more than all the driver exposes; leave room or use a smaller micro-batch"
	if got := borderlineTableNote(nil, offers); got != want {
		t.Errorf("note\n got %q\nwant %q", got, want)
	}
	wantZH := "~ 显存紧张（2 行）：90% 区间上限达到每卡 205.68–319.43 GiB，各行按各自的布局计算，超出可用显存（已留出 5% 安全余量）；显存不足的概率约 10%，即需要超过驱动可见的全部显存；请留出余量或减小微批次"
	if got := borderlineTableNote(i18n.New(language.SimplifiedChinese), offers); got != wantZH {
		t.Errorf("zh-CN note\n got %q\nwant %q", got, wantZH)
	}
	for i, want := range []float64{205.68, 319.43} {
		if j := NewOfferJSON(&offers[i], ""); j.VRAMBandHighGiB == nil || *j.VRAMBandHighGiB != want {
			t.Errorf("offer %d: vram_band_high_gib %v, want %v", i, j.VRAMBandHighGiB, want)
		}
	}
}

// TestOfferLate: an offer whose time range straddles the deadline
// (model.Offer.Late, issue 31) says so in its JSON (deadline_miss_chance),
// its job-time cell ("~") and the note under the table, in both
// languages; one that meets it at the range's slow end carries none.
func TestOfferLate(t *testing.T) {
	g := &model.GPU{Key: "v100", Name: "V100", MemoryGiB: 16}
	inst := &model.Instance{Provider: "p", Type: "g.1", GPU: "v100", GPUCount: 1}
	e := &model.Estimate{Hours: 28.6, HasTime: true, TimeBand: [2]float64{16.9, 48.4}}
	zh := i18n.New(language.SimplifiedChinese)
	for _, tt := range []struct {
		late       float64
		job, note  string
		noteZH     string
		jsonChance *float64
	}{
		{0.44, "~28.6 h", "~ job time (1 row): about 45% chance of missing the 30 h deadline, which falls inside the 90% range of the time; ranked after the offers that meet it at the range's slow end",
			"~ 作业时长（1 行）：错过 30 小时截止时间的概率约 45%——截止时间落在用时的 90% 区间内；排在按区间上限也能按时完成的报价之后", ptr(0.45)},
		{0, "28.6 h", "", "", nil},
	} {
		o := model.Offer{Instance: inst, GPU: g, Region: "r", Instances: 1, GPUs: 1, HeadroomPct: 5, Verdict: model.VerdictFits, Estimate: e,
			JobHours: 28.6, JobUSD: 4, HasJob: true, LateChance: tt.late}
		if tt.late > 0 {
			o.DeadlineHours = 30
		}
		j := NewOfferJSON(&o, "")
		if (j.DeadlineMissChance == nil) != (tt.jsonChance == nil) || j.DeadlineMissChance != nil && *j.DeadlineMissChance != *tt.jsonChance {
			t.Errorf("late %v: JSON deadline_miss_chance %v, want %v", tt.late, j.DeadlineMissChance, tt.jsonChance)
		}
		if row := OfferRow(&o); row[6] != tt.job {
			t.Errorf("late %v: job-time cell %q, want %q", tt.late, row[6], tt.job)
		}
		onTime := o // ranked first and on time, so the note's "ranked after" holds
		onTime.LateChance, onTime.DeadlineHours = 0, 0
		if got := lateTableNote(nil, []model.Offer{onTime, o}, false); got != tt.note {
			t.Errorf("late %v: note\n got %q\nwant %q", tt.late, got, tt.note)
		}
		if got := lateTableNote(zh, []model.Offer{onTime, o}, false); got != tt.noteZH {
			t.Errorf("late %v: Chinese note\n got %q\nwant %q", tt.late, got, tt.noteZH)
		}
		short, shortZH := "", ""
		if tt.late > 0 {
			short, shortZH = "~ job time (1 offer): about 45% chance of missing the 30 h deadline; ranked after the offers that meet it", "~ 作业时长（1 个报价）：错过 30 小时截止时间的概率约 45%；排在能按时完成的报价之后"
		}
		if got, gotZH := LateNoteShort(nil, []model.Offer{onTime, o}, false), LateNoteShort(zh, []model.Offer{onTime, o}, false); got != short || gotZH != shortZH {
			t.Errorf("late %v: short notes %q / %q, want %q / %q", tt.late, got, gotZH, short, shortZH)
		}
	}
}

// TestLateNoteDeadlineAsGiven: the notes under the offers table print the
// deadline as given, in both languages (walk37: --deadline-hours 2.4 read
// "chance of missing the 2 h deadline").
func TestLateNoteDeadlineAsGiven(t *testing.T) {
	g := &model.GPU{Key: "v100", Name: "V100", MemoryGiB: 16}
	inst := &model.Instance{Provider: "p", Type: "g.1", GPU: "v100", GPUCount: 1}
	e := &model.Estimate{Hours: 2.2, HasTime: true, TimeBand: [2]float64{1.3, 3.7}}
	o := model.Offer{Instance: inst, GPU: g, Region: "r", Instances: 1, GPUs: 1, Verdict: model.VerdictFits, Estimate: e,
		JobHours: 2.2, JobUSD: 1, HasJob: true, LateChance: 0.44, DeadlineHours: 2.4}
	zh := i18n.New(language.SimplifiedChinese)
	for _, tt := range []struct{ got, want string }{
		{lateTableNote(nil, []model.Offer{o}, false), "missing the 2.4 h deadline"},
		{lateTableNote(zh, []model.Offer{o}, false), "错过 2.4 小时截止时间"},
		{LateNoteShort(nil, []model.Offer{o}, false), "missing the 2.4 h deadline"},
		{LateNoteShort(zh, []model.Offer{o}, false), "错过 2.4 小时截止时间"},
	} {
		if !strings.Contains(tt.got, tt.want) {
			t.Errorf("note %q, want %q", tt.got, tt.want)
		}
	}
}

// TestMarketCountLines: the offers table's group heading and footer count
// group 10,000 and more as the configurator does, in both languages
// (trial 15b N8: "aws: 14387 offers", "100207 offers (cheapest region per
// type)").
func TestMarketCountLines(t *testing.T) {
	zh := i18n.New(language.SimplifiedChinese)
	g := market.Group{Key: "aws", Rows: make([]int, 14387), MinUSDPerHour: 3.28, MaxUSDPerHour: 39.35, MinUSDPerGPUHour: 2.74, MaxUSDPerGPUHour: 4.92}
	res := &market.Result{Query: market.Query{Pricing: model.OnDemand}, Rows: make([]market.Row, 100207)}
	small := &market.Result{Query: market.Query{Pricing: model.OnDemand, AllRegions: true}, Rows: make([]market.Row, 3580)}
	// --group-by provider --limit: the groups' hidden rows are the rest of
	// the rows (a walk: "18 offers" over groups of 22); by region a row
	// may be in several groups, so the count is the rows shown.
	byProvider := &market.Result{Query: market.Query{Pricing: model.OnDemand, GroupBy: market.GroupProvider}, Rows: make([]market.Row, 18), Groups: []market.Group{{Key: "aws"}}}
	byRegion := &market.Result{Query: market.Query{Pricing: model.OnDemand, GroupBy: market.GroupRegion}, Rows: make([]market.Row, 18), Groups: []market.Group{{Key: "us-east-1"}}}
	for _, tc := range []struct{ got, want string }{
		{MarketGroupLine(nil, &g), "aws: 14,387 offers, $3.28–$39.35/h, $2.74–$4.92 per GPU-hour"},
		{MarketGroupLine(zh, &g), "aws：14,387 个报价，$3.28–$39.35/小时，每 GPU 小时 $2.74–$4.92"},
		{marketCountLine(nil, res, 0), "100,207 offers (cheapest region per type), on-demand prices per hour; +N counts other regions at the same price."},
		{marketCountLine(zh, res, 0), "100,207 个报价（每种规格取最便宜地域），按需实例每小时价格；+N 表示另有 N 个同价地域。"},
		{marketCountLine(nil, small, 0), "3580 offers (every region price), on-demand prices per hour; +N counts other regions at the same price."},
		{marketCountLine(nil, small, 20), "3580 of 3600 offers shown (every region price), on-demand prices per hour; +N counts other regions at the same price."},
		{marketCountLine(zh, small, 20), "显示 3580 个，共 3600 个报价（列出每个地域的价格），按需实例每小时价格；+N 表示另有 N 个同价地域。"},
		{marketCountLine(nil, byProvider, 4), "18 of 22 offers shown (cheapest region per type), on-demand prices per hour; +N counts other regions at the same price."},
		{marketCountLine(nil, byRegion, 4), "18 offers (cheapest region per type), on-demand prices per hour; +N counts other regions at the same price."},
	} {
		if tc.got != tc.want {
			t.Errorf("got  %q\nwant %q", tc.got, tc.want)
		}
	}
}

// TestRiskyAheadNote: when a cheaper offer ranks after the ones that fit
// for its chance of running out of memory (model.Offer.Risky), the note
// under the table, the configurator's short one and the JSON name it, in
// both languages (new-user walk, S4: 2×H100 at $5.46/h, 15%, at place 63
// behind 8×H100 hosts); none when the first offer is the cheapest. Any
// borderline offer counts, a 10% chance too (issue 30: a V100 16GB with
// about a 10% chance was the "best:" line).
func TestRiskyAheadNote(t *testing.T) {
	g := &model.GPU{Key: "h100-sxm", Name: "H100", MemoryGiB: 80}
	inst := func(typ string, n int) *model.Instance {
		return &model.Instance{Provider: "shadeform", Type: typ, GPU: "h100-sxm", GPUCount: n}
	}
	fits := model.Offer{Instance: inst("h100x4", 4), GPU: g, Region: "us", Instances: 1, GPUs: 4, Strategy: model.FSDP,
		Verdict: model.VerdictFits, USDPerHour: 12.36, MonthlyUSD: 9023, SizedGPUs: 4}
	risky := model.Offer{Instance: inst("massedcompute_H100x2", 2), GPU: g, Region: "desmoines", Instances: 1, GPUs: 2, Strategy: model.FSDP,
		Verdict: model.VerdictBorderline, OOMChance: 0.16, USDPerHour: 5.46, MonthlyUSD: 3986, SizedGPUs: 2}
	dear := risky
	dear.USDPerHour, dear.MonthlyUSD = 20, 14600
	zh := i18n.New(language.SimplifiedChinese)
	for _, tt := range []struct {
		name                         string
		rec                          model.Recommendation
		note, noteZH, short, shortZH string
		rank                         int
	}{
		{"cheaper risky, auto GPUs", model.Recommendation{Offers: []model.Offer{fits, risky}, Sort: model.SortPrice, AutoGPUs: true},
			"2×h100-sxm (shadeform massedcompute_H100x2) at $5.46/h is cheaper but has about a 15% chance of running out of memory: ranked after the offers that fit (--gpus 2 --strategy fsdp ranks the offers on 2 GPUs)",
			"2×h100-sxm（shadeform massedcompute_H100x2）$5.46/小时，更便宜，但约有 15% 的概率显存不足：排在放得下的报价之后（--gpus 2 --strategy fsdp 会排出 2 块 GPU 的报价）",
			"2×h100-sxm at $5.46/h: about 15% chance of running out of memory; ranked after the offers that fit",
			"2×h100-sxm $5.46/小时：约 15% 的概率显存不足；排在放得下的报价之后", 2},
		{"by month, fixed GPUs", model.Recommendation{Offers: []model.Offer{fits, risky}, Sort: model.SortMonthly},
			"2×h100-sxm (shadeform massedcompute_H100x2) at $3,986/month is cheaper but has about a 15% chance of running out of memory: ranked after the offers that fit",
			"2×h100-sxm（shadeform massedcompute_H100x2）$3,986/月，更便宜，但约有 15% 的概率显存不足：排在放得下的报价之后",
			"2×h100-sxm at $3,986/month: about 15% chance of running out of memory; ranked after the offers that fit",
			"2×h100-sxm $3,986/月：约 15% 的概率显存不足；排在放得下的报价之后", 2},
		{"risky but dearer", model.Recommendation{Offers: []model.Offer{fits, dear}, Sort: model.SortPrice},
			"", "", "", "", 0},
		{"the first offer risky itself", model.Recommendation{Offers: []model.Offer{risky, fits}, Sort: model.SortPrice},
			"", "", "", "", 0},
		{"by headroom", model.Recommendation{Offers: []model.Offer{fits, risky}, Sort: model.SortHeadroom},
			"", "", "", "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := tt.rec
			if got := RiskyAheadNote(nil, &rec); got != tt.note {
				t.Errorf("note\n got %q\nwant %q", got, tt.note)
			}
			if got := RiskyAheadNote(zh, &rec); got != tt.noteZH {
				t.Errorf("Chinese note\n got %q\nwant %q", got, tt.noteZH)
			}
			if got, gotZH := RiskyAheadNoteShort(nil, &rec), RiskyAheadNoteShort(zh, &rec); got != tt.short || gotZH != tt.shortZH {
				t.Errorf("short notes %q / %q, want %q / %q", got, gotZH, tt.short, tt.shortZH)
			}
			_, at := rec.RiskyAhead()
			if at+1 != tt.rank {
				t.Errorf("rank %d, want %d", at+1, tt.rank)
			}
		})
	}
	// At 10% the cheaper offer is borderline too: ranked after, named.
	ten := risky
	ten.OOMChance = 0.1
	want := "2×h100-sxm (shadeform massedcompute_H100x2) at $5.46/h is cheaper but has about a 10% chance of running out of memory: ranked after the offers that fit"
	if got := RiskyAheadNote(nil, &model.Recommendation{Offers: []model.Offer{fits, ten}, Sort: model.SortPrice}); got != want {
		t.Errorf("a 10%% chance: note %q, want %q", got, want)
	}
}
