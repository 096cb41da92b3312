package report

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/advice"
	"github.com/gpuplan/gpuplan/model/decide"
	"github.com/gpuplan/gpuplan/model/market"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/i18n"
)

var (
	leakCatOnce sync.Once
	leakCat     *model.Catalog
	leakCatErr  error
)

// leakCatalog is the embedded GPUs and models with a fixed set of
// instances (so the test does not follow price updates): on-demand and
// spot, one multi-node-capable 8-GPU host, an arm64-free mix of clouds.
func leakCatalog(t testing.TB) *model.Catalog {
	t.Helper()
	leakCatOnce.Do(func() {
		full, err := data.Load()
		if err != nil {
			leakCatErr = err
			return
		}
		c := &model.Catalog{GPUs: full.GPUs, Models: full.Models, Discounts: full.Discounts, AsOf: "2026-11-30"}
		inst := func(provider, typ, gpu string, n, vcpus int, ram, net float64, link string, prices ...model.RegionPrice) model.Instance {
			return model.Instance{Provider: provider, Type: typ, GPU: gpu, GPUCount: n, VCPUs: vcpus, MemoryGiB: ram, NetworkGbps: net,
				Interconnect: link, Prices: prices, Source: "test fixture", AsOf: "2026-11-30"}
		}
		p := func(region string, onDemand, spot float64) model.RegionPrice {
			return model.RegionPrice{Region: region, OnDemandUSD: onDemand, SpotUSD: spot}
		}
		c.Instances = []model.Instance{
			inst("aws", "g6.xlarge", "l4", 1, 4, 16, 10, "pcie", p("us-east-1", 0.8048, 0.35), p("eu-west-1", 0.89, 0)),
			inst("aws", "g5.xlarge", "a10g", 1, 4, 16, 10, "pcie", p("us-east-1", 1.006, 0.45)),
			inst("aws", "p4de.24xlarge", "a100-80gb", 8, 96, 1152, 400, "nvswitch", p("us-east-1", 40.97, 16.2)),
			inst("gcp", "g2-standard-4", "l4", 1, 4, 16, 10, "pcie", p("us-central1", 0.7068, 0.28)),
			inst("gcp", "a2-ultragpu-1g", "a100-80gb", 1, 12, 170, 24, "nvlink", p("us-central1", 5.07, 2.0)),
			inst("lambda", "gpu_1x_h100_pcie", "h100-pcie", 1, 26, 200, 0, "", p("us-west-1", 2.49, 0)),
		}
		c.Index()
		leakCat = c
	})
	if leakCatErr != nil {
		t.Fatal(leakCatErr)
	}
	return leakCat
}

// leakCase is one workload the reports are rendered for.
type leakCase struct {
	name  string
	model string
	gpu   string // estimate --gpu
	edit  func(w *model.Workload)
	q     model.Query
}

var leakCases = []leakCase{
	{"lora 8b on l4, does not fit", "llama-3.1-8b", "l4", func(w *model.Workload) {
		w.Task, w.MicroBatch, w.SeqLen, w.DatasetSamples, w.Epochs = model.TaskLoRA, 8, 4096, 20000, 1
	}, model.Query{}},
	{"qlora 8b on a100, fits", "llama-3.1-8b", "a100-80gb", func(w *model.Workload) {
		w.Task, w.MicroBatch, w.SeqLen, w.GradAccum, w.DatasetTokens = model.TaskQLoRA, 4, 2048, 4, 5e7
		w.Checkpointing = model.Bool(true)
	}, model.Query{Pricing: model.Spot}},
	{"full fine-tune 7b zero3 on 8 gpus", "mistral-7b", "a100-80gb", func(w *model.Workload) {
		w.Task, w.GPUs, w.Strategy, w.MicroBatch, w.SeqLen, w.DatasetSamples = model.TaskFinetune, 8, model.ZeRO3, 2, 2048, 1e5
	}, model.Query{AutoGPUs: true, AllowMultiNode: true}},
	{"inference 70b int4", "llama-3.1-70b", "h100-pcie", func(w *model.Workload) {
		w.Task, w.Precision, w.ContextLen, w.Sequences, w.GenTokens = model.TaskInference, model.INT4, 8192, 16, 512
	}, model.Query{MaxUSDPerHour: 3}},
	{"resnet50 train", "resnet50", "l4", func(w *model.Workload) {
		w.Task, w.MicroBatch, w.ImageSize, w.DatasetSamples, w.Epochs = model.TaskTrain, 256, 224, 1.28e6, 90
	}, model.Query{Sort: model.SortTime}},
}

// renderLeakCase renders the estimate (with its GPU) and the recommend
// report of c with printer p.
func renderLeakCase(t testing.TB, c leakCase, p *i18n.Printer) string {
	t.Helper()
	cat := leakCatalog(t)
	arch, err := cat.Model(c.model)
	if err != nil {
		t.Fatal(err)
	}
	w := model.Workload{Settings: model.Settings{Framework: model.PyTorch, Precision: model.BF16, GPUs: 1}, Model: *arch}
	c.edit(&w)
	w.Defaults()
	g, err := cat.GPU(c.gpu)
	if err != nil {
		t.Fatal(err)
	}
	r := &Renderer{Profile: colorprofile.NoTTY, Dark: true, Lang: p}
	var b bytes.Buffer
	e, err := model.Compute(w, g)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	f := advice.CheckFit(&e, g)
	if err := WriteEstimate(&b, r, &e, &f, 120); err != nil {
		t.Fatal(err)
	}
	base, err := model.Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := model.Recommend(w, cat, c.q)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	b.WriteString("\n")
	if err := WriteRecommend(&b, r, &rec, &base, 5, 120); err != nil {
		t.Fatal(err)
	}
	// The decisions recommend prints under the table: spot estimates (at
	// an assumed rate where the fixture has none), commitments, savings.
	rate := func(provider, region, typ string) decide.InterruptionRate {
		if provider == "aws" {
			return decide.InterruptionRate{PerMonth: 0.075, LowPerMonth: 0.05, HighPerMonth: 0.1, Bucket: "5-10%", Source: "test"}
		}
		return decide.InterruptionRate{PerMonth: 0.1, Assumption: true, Source: "test"}
	}
	q := c.q
	d := Decide(&rec, DecideInput{Catalog: cat, Workload: w, Query: q, Rate: rate, Savings: true, Hints: true,
		Spot: decide.SpotAssumptions{CheckpointWriteBytesPerSecond: decide.DefaultCheckpointWriteBytesPerSecond,
			RestartHours: decide.DefaultRestartHours, WriteDefaulted: true, RestartDefaulted: true}})
	if err := WriteDecisions(&b, r, &rec, d); err != nil {
		t.Fatal(err)
	}
	// --pareto with --finish-by and --max-job-cost: the front and the answers.
	answers := []Answer{AnswerFinishWithin(&rec, d, d.Front, 5, "2027-01-31"), AnswerFinishWithin(&rec, d, d.Front, 0.01, "2026-12-01"),
		AnswerMaxJobCost(&rec, d, d.Front, 50), AnswerMaxJobCost(&rec, d, d.Front, 0.01)}
	if err := WritePareto(&b, r, &rec, d, answers); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// leakAllowlist is the default allowlist plus every name the fixture
// catalog can print: models, GPUs, providers, instance types, regions.
func leakAllowlist(cat *model.Catalog) i18n.Allowlist {
	a := i18n.DefaultAllowlist()
	a.Add("wide")        // -o wide, which the hidden-columns line under a narrow table names (hiddenColumnsLine)
	a.Add("memory time") // calibration band keys (model.BandKey), which print as named: "memory/vision", or "memory" alone
	for _, g := range cat.GPUs {
		a.Add(g.Key + " " + g.Name)
	}
	for _, m := range cat.Models {
		a.Add(m.Key + " " + m.Name)
	}
	for _, in := range cat.Instances {
		a.Add(in.Provider + " " + in.Type)
		for _, p := range in.Prices {
			a.Add(p.Region)
		}
	}
	return a
}

// TestChineseReportsLeakNoEnglish renders the estimate and recommend
// reports in Chinese for several workloads and fails on any Latin word
// that is not a name, unit or acronym: an untranslated message. The
// missing catalogue keys are listed to paste into zh-CN.toml.
func TestChineseReportsLeakNoEnglish(t *testing.T) {
	cat := leakCatalog(t)
	allow := leakAllowlist(cat)
	p := i18n.NewTracing(language.SimplifiedChinese)
	for _, c := range leakCases {
		out := renderLeakCase(t, c, p)
		if leaks := i18n.Leaks(out, allow); len(leaks) > 0 {
			t.Errorf("%s: English in the Chinese report: %s\n%s", c.name, strings.Join(leaks, " "), out)
		}
	}
	if t.Failed() {
		for _, k := range p.Untranslated() {
			t.Logf("untranslated: %q", k)
		}
	}
}

// TestEnglishReportsUnchanged: a nil printer and the English printer
// render the same bytes (the README samples and goldens pin the English
// text itself), and the English report has no Chinese in it.
func TestEnglishReportsUnchanged(t *testing.T) {
	for _, c := range leakCases {
		nilOut := renderLeakCase(t, c, nil)
		enOut := renderLeakCase(t, c, i18n.New(language.English))
		if nilOut != enOut {
			t.Errorf("%s: English printer differs from the default", c.name)
		}
		for _, r := range nilOut {
			if r >= 0x3000 && r <= 0x9fff {
				t.Errorf("%s: CJK %q in the English report", c.name, r)
				break
			}
		}
	}
}

// renderCatalogs renders the catalog tables and two offers listings
// (flat, and grouped by GPU with a CNY rate) of the fixture catalog.
func renderCatalogs(t *testing.T, p *i18n.Printer) string {
	t.Helper()
	cat := leakCatalog(t)
	r := &Renderer{Profile: colorprofile.NoTTY, Dark: true, Lang: p}
	var b bytes.Buffer
	if err := WriteCatalogGPUs(&b, r, cat, 0); err != nil {
		t.Fatal(err)
	}
	if err := WriteCatalogInstances(&b, r, cat, ""); err != nil {
		t.Fatal(err)
	}
	if err := WriteCatalogModels(&b, r, cat, 0); err != nil {
		t.Fatal(err)
	}
	rate := 7.1
	for _, q := range []market.Query{{}, {GroupBy: market.GroupGPU, Pricing: model.Spot}} {
		res, err := market.Browse(cat, q)
		if err != nil {
			t.Fatal(err)
		}
		m := MarketJSON{MarketListJSON: NewMarketListJSON(&res), NeedsRate: NeedsRate(cat, nil, nil),
			Prices: NewProvenanceJSON(market.CatalogProvenance(cat, ""))}
		m.USDCNY = &rate
		m.NeedsRate = append(m.NeedsRate, NeedsRateJSON{Provider: "aliyun", InstanceType: "ecs.gn7i-c8g1.2xlarge", Currency: "CNY"})
		if err := WriteMarket(&b, r, &res, m, 0); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// TestChineseCatalogsLeakNoEnglish is the leak test of the catalog and
// offers tables.
func TestChineseCatalogsLeakNoEnglish(t *testing.T) {
	cat := leakCatalog(t)
	allow := leakAllowlist(cat)
	for _, g := range cat.GPUs { // catalog columns show every GPU's figures
		allow.Add(g.Vendor + " " + g.Architecture + " " + g.ComputeCapability)
	}
	allow.Add("aliyun nvlink nvswitch pcie")
	p := i18n.NewTracing(language.SimplifiedChinese)
	out := renderCatalogs(t, p)
	if leaks := i18n.Leaks(out, allow); len(leaks) > 0 {
		t.Errorf("English in the Chinese catalog and offers: %s\n%s", strings.Join(leaks, " "), out)
		for _, k := range p.Untranslated() {
			t.Logf("untranslated: %q", k)
		}
	}
	if en := renderCatalogs(t, nil); en != renderCatalogs(t, i18n.New(language.English)) {
		t.Error("English printer differs from the default")
	}
}

// TestChineseTablesAlign: in Chinese, where headers and names are two
// cells a character, every line of a rendered table has the same display
// width (lipgloss pads by cells, not bytes or runes), and the VRAM
// breakdown's sizes end in one column.
func TestChineseTablesAlign(t *testing.T) {
	p := i18n.New(language.SimplifiedChinese)
	out := renderLeakCase(t, leakCases[2], p) + renderCatalogs(t, p)
	var table []string
	tables := 0
	flush := func() {
		if len(table) > 2 {
			tables++
			w := lipgloss.Width(table[0])
			ink := 0 // the rule spans the widest line without its ending blanks (inkWidth)
			for i, l := range table {
				if i != 1 {
					ink = max(ink, lipgloss.Width(strings.TrimRight(ansi.Strip(l), " ")))
				}
			}
			for i, l := range table[1:] {
				if i == 0 && strings.Trim(l, "─") == "" {
					if lipgloss.Width(l) != ink {
						t.Errorf("rule %d cells wide, the widest line %d:\n%s\n%s", lipgloss.Width(l), ink, table[0], l)
					}
					continue
				}
				if lipgloss.Width(l) != w {
					t.Errorf("table line %d cells wide, header %d:\n%s\n%s", lipgloss.Width(l), w, table[0], l)
				}
			}
		}
		table = nil
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		// A table starts at the line above its rule of "─".
		if t := strings.TrimSpace(l); t != "" && strings.Trim(t, "─") == "" && i > 0 {
			if len(table) > 0 {
				table = table[:len(table)-1] // that header is the next table's
			}
			flush()
			table = []string{lines[i-1], l}
			continue
		}
		if table != nil {
			if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "~") || !strings.Contains(l, "  ") {
				flush()
				continue
			}
			table = append(table, l)
		}
	}
	flush()
	if tables < 5 { // offers, GPUs, instances, models, two listings
		t.Errorf("checked %d tables, want the 6 rendered", tables)
	}
	end := -1
	for _, l := range lines {
		if strings.HasSuffix(l, " GiB") && (strings.HasPrefix(l, "  █") || strings.HasPrefix(l, "  ▓") || strings.HasPrefix(l, "  ▒") ||
			strings.HasPrefix(l, "  ░") || strings.HasPrefix(l, "  ·") || strings.HasPrefix(l, "    其中")) {
			if w := lipgloss.Width(l); end < 0 {
				end = w
			} else if w != end {
				t.Errorf("breakdown line ends at cell %d, the first at %d: %q", w, end, l)
			}
		}
	}
	if end < 0 {
		t.Error("no breakdown lines found")
	}
}

// renderServing renders a vLLM serving estimate on one GPU and the
// serving ranking over the fixture's offers, with tight targets so some
// plans miss (near misses with their reasons).
func renderServing(t *testing.T, p *i18n.Printer) string {
	t.Helper()
	cat := leakCatalog(t)
	arch, err := cat.Model("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	w := model.Workload{Settings: model.Settings{Task: model.TaskInference, Precision: model.BF16, GPUs: 1}, Model: *arch}
	w.Defaults()
	s := serve.Serving{WeightFormat: serve.WeightFormatFor(model.BF16), MaxModelLen: 8192, PromptTokens: 2000, OutputTokens: 500,
		Concurrency: 64, TTFTTargetMs: 500, TPOTTargetMs: 30}
	r := &Renderer{Profile: colorprofile.NoTTY, Dark: true, Lang: p}
	var b bytes.Buffer
	offers := serve.Offers(cat, model.Query{})
	plans, err := serve.RankServing(&w.Model, s, offers)
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) == 0 {
		t.Fatal("no serving plans")
	}
	if err := WriteServeEstimate(&b, r, &w, &plans[len(plans)-1], nil); err != nil {
		t.Fatal(err)
	}
	if err := WriteServeEstimate(&b, r, &w, &plans[0], nil); err != nil {
		t.Fatal(err)
	}
	if err := WriteServeRecommend(&b, r, &w, &s, plans, 5, 0); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestChineseServingLeaksNoEnglish is the leak test of the vLLM serving
// reports.
func TestChineseServingLeaksNoEnglish(t *testing.T) {
	cat := leakCatalog(t)
	allow := leakAllowlist(cat)
	p := i18n.NewTracing(language.SimplifiedChinese)
	out := renderServing(t, p)
	if leaks := i18n.Leaks(out, allow); len(leaks) > 0 {
		t.Errorf("English in the Chinese serving reports: %s\n%s", strings.Join(leaks, " "), out)
		for _, k := range p.Untranslated() {
			t.Logf("untranslated: %q", k)
		}
	}
	// A label that ends in a full-width colon carries its own space: "临界： 2 ×" read as a stray gap.
	noGapAfterFullWidthColon(t, out)
	if en := renderServing(t, nil); en != renderServing(t, i18n.New(language.English)) {
		t.Error("English printer differs from the default")
	}
}

// TestReportRendererLanguage: printed reports follow the locale
// environment (LC_ALL, LC_MESSAGES, LANG), English by default.
func TestReportRendererLanguage(t *testing.T) {
	for _, tt := range []struct {
		env     map[string]string
		chinese bool
	}{
		{map[string]string{}, false},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, true},
		{map[string]string{"LANG": "zh_CN.UTF-8", "LC_ALL": "C"}, false},
		{map[string]string{"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_SG.UTF-8"}, true},
	} {
		r := ReportRenderer(&bytes.Buffer{}, func(k string) string { return tt.env[k] })
		if r.Lang.Chinese() != tt.chinese {
			t.Errorf("ReportRenderer(%v).Lang Chinese = %v, want %v", tt.env, r.Lang.Chinese(), tt.chinese)
		}
	}
}

// BenchmarkEstimateReport measures what the catalogue lookups cost a
// report: the same estimate and recommend report in English (no lookups)
// and in Chinese (one x/text catalogue lookup per message).
func BenchmarkEstimateReport(b *testing.B) {
	for _, lang := range []struct {
		name string
		p    *i18n.Printer
	}{{"en", nil}, {"zh", i18n.New(language.SimplifiedChinese)}} {
		b.Run(lang.name, func(b *testing.B) {
			for b.Loop() {
				renderLeakCase(b, leakCases[0], lang.p)
			}
		})
	}
}

// BenchmarkFormat is one catalogue lookup.
func BenchmarkFormat(b *testing.B) {
	p := i18n.New(language.SimplifiedChinese)
	for b.Loop() {
		p.Format("needs %.1f GiB per GPU, has %.1f GiB usable")
	}
}

// TestCountGrouped: counts of ten thousand and more are grouped, as the
// configurator's and the CLI's counts beside prices are, in English and
// Chinese (which takes no plural).
func TestCountGrouped(t *testing.T) {
	zh := i18n.New(language.SimplifiedChinese)
	for _, tc := range []struct {
		p    *i18n.Printer
		n    int
		want string
	}{
		{nil, 1, "1 offer"}, {nil, 9999, "9999 offers"}, {nil, 100207, "100,207 offers"},
		{zh, 9999, zh.Sprintf("%d offer", 9999)}, {zh, 100207, strings.Replace(zh.Sprintf("%d offer", 100207), "100207", "100,207", 1)},
	} {
		if got := Count(tc.p, tc.n, "offer"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// TestPlanSavingsErrorChinese (walk36d): the plan's "what saves the most"
// line that says why none is ranked reads in Chinese, as the ranked list
// does (it printed the error's English text).
func TestPlanSavingsErrorChinese(t *testing.T) {
	p := i18n.New(language.SimplifiedChinese)
	err := model.Msg("none ranked: the estimator finds no offer for a phase on its pinned provider, region and GPU type (%v); pick one that fits with gpuplan recommend --config PLAN --phase NAME", model.Msg("no offers: the plan as it stands has no cost to compare with"))
	var b bytes.Buffer
	if e := WritePlanSavings(&b, &Renderer{Profile: colorprofile.NoTTY, Dark: true, Lang: p}, 10, 0, nil, nil, nil, err); e != nil {
		t.Fatal(e)
	}
	if out := b.String(); strings.Contains(out, "none ranked") || !strings.Contains(out, "无法排序") {
		t.Errorf("not in Chinese:\n%s", out)
	}
	// The label ends in a full-width colon, which carries its own space
	// (a walk read "最省钱的调整： 无法排序").
	noGapAfterFullWidthColon(t, b.String())
}

// noGapAfterFullWidthColon fails on a space after a full-width colon in
// composed output: a label and its value joined with " " where the
// label's translation ends in "：" (LabelGap).
func noGapAfterFullWidthColon(t *testing.T, out string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "： ") {
			t.Errorf("space after a full-width colon: %q", l)
		}
	}
}
