package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/serve"
	"github.com/gpuplan/gpuplan/ui/report"
)

// servingApp is the configurator answered for the case: Llama 3.1
// 70B in AWQ at an 8k context, 32 concurrent requests of 2k + 512 tokens,
// at most 50 ms per output token.
func servingApp(t *testing.T, w, h int) app {
	t.Helper()
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(w, h))
	a := m.a
	a.Task, a.Model, a.InferPrecision = model.TaskInference, "llama-3.1-70b", model.BF16
	a.Batch, a.Length = "32", "8K"
	a.Serve = serveAnswers{WeightFormat: serve.WeightAWQ, KVCacheDType: serve.KVAuto, PromptTokens: "2K", OutputTokens: "512", TPOTMs: "50"}
	m.recompute()
	return m
}

// TestServingPanel: the panel (alone, at two sizes) shows the KV capacity, the concurrent
// sequences, tokens/s, TTFT/TPOT and $ per million output tokens of the
// best offer, and the offers meeting the targets by $/Mtok.
func TestServingPanel(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := servingApp(t, sz[0], sz[1])
			if m.res == nil || m.res.serve == nil {
				t.Fatalf("no serving plan: %+v", m.res)
			}
			best := &m.res.serve[0]
			if !best.Meets || best.Serving.WeightFormat != serve.WeightAWQ || best.Serving.MaxModelLen != 8192 || best.Serving.Concurrency != 32 {
				t.Errorf("best plan %+v", best.Serving)
			}
			p := m.panel
			p.cache = nil
			p.setSize(sz[0], sz[1])
			view := p.view(false)
			checkFits(t, view, sz[0], sz[1])
			text := strings.Join(strings.Fields(ansi.Strip(view)), " ")
			for _, want := range []string{"KV cache", "concurrent 8192-token sequences", "output tokens/s", "TTFT", "TPOT", "per million output tokens", "meet the targets"} {
				if !strings.Contains(text, want) {
					t.Errorf("the panel lacks %q:\n%s", want, ansi.Strip(view))
				}
			}
			golden.RequireEqual(t, []byte(ansi.Strip(view)))
		})
	}
}

// TestServingQuestions: the inference path of an LLM asks the serving
// questions and not the training strategy; the answers become [serve].
func TestServingQuestions(t *testing.T) {
	m := servingApp(t, 120, 40)
	titles := map[string]bool{}
	for _, p := range m.wiz.pages {
		if p.hide == nil || !p.hide() {
			titles[p.title] = true
		}
	}
	if !titles["Serving"] || titles["GPUs and strategy"] || titles["Distribution"] {
		t.Errorf("pages shown: %v; want Serving, without Distribution and GPUs and strategy", titles)
	}
	m.a.Serve.RPS, m.a.Serve.TTFTMs = "3", "500"
	c, err := m.a.config()
	if err != nil {
		t.Fatal(err)
	}
	s := c.Workload.Serve
	if s.WeightFormat != serve.WeightAWQ || s.PromptTokens != 2048 || s.OutputTokens != 512 || s.RequestsPerSec != 3 ||
		s.TTFTTargetMs != 500 || s.TPOTTargetMs != 50 || s.Concurrency != 0 {
		t.Errorf("[serve] from the answers: %+v", s)
	}
	back := answersFromConfig(testCatalog(t), &c)
	if back.Serve.WeightFormat != serve.WeightAWQ || back.Serve.PromptTokens != "2048" || back.Serve.RPS != "3" {
		t.Errorf("answers from the file: %+v", back.Serve)
	}
	m.a.Serve.OutputTokens = "lots"
	if _, err := m.a.config(); err == nil || !strings.Contains(err.Error(), "output tokens") {
		t.Errorf("a bad output length: %v", err)
	}
}

// TestServingExport: the export dialog writes vLLM's files for a serving
// request, not a training launcher.
func TestServingExport(t *testing.T) {
	m := servingApp(t, 120, 40)
	var picked *model.Offer
	for i := range m.res.rec.Offers {
		if o := &m.res.rec.Offers[i]; o.Instance.Type == "p5.48xlarge" {
			picked = o
		}
	}
	if picked == nil {
		t.Fatalf("no p5.48xlarge offer among %d", len(m.res.rec.Offers))
	}
	for _, tc := range []struct {
		format launch.Format
		want   []string
	}{
		{launch.FormatK8s, []string{"kind: Deployment", "kind: Service", "--tensor-parallel-size"}},
		{launch.FormatTorchrun, []string{"vllm serve", "--max-model-len 8192"}},
		{launch.FormatSkyPilot, []string{"service:", "readiness_probe"}},
		{launch.FormatTOML, []string{"[serve]", `weight_format = "awq"`}},
		// The serving probe (probescript.Serve), as gpuplan export --format
		// probe writes it; it was refused as "format probe: want toml, …".
		{launch.FormatProbe, []string{"PLAN = json.loads(", `\"kind\":\"serve\"`, "vllm"}},
	} {
		cfg, err := exportConfigOf(m.a, m.res, picked, m.cat.AsOf)
		if err != nil {
			t.Fatal(err)
		}
		d := newExportDialog("x.toml", cfg, picked, tc.format, newTheme(), 60, nil, m.res.serving, nil)
		out, _, _, err := d.again(newTheme()).payload()
		if err != nil {
			t.Fatalf("%s: %v", tc.format, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s lacks %q:\n%s", tc.format, w, out)
			}
		}
		// The probe is one script for both (its training path names
		// torchrun); the launch files must not.
		if tc.format != launch.FormatProbe && strings.Contains(string(out), "torchrun ") {
			t.Errorf("%s: a training launcher for a serving request", tc.format)
		}
	}
}

// TestServingOffers: the offers screen lists the plans that meet the
// targets in the serving order, and the detail shows vLLM's layout.
func TestServingOffers(t *testing.T) {
	m := servingApp(t, 120, 40)
	var meets []*serve.Plan
	for i := range m.res.serve {
		if m.res.serve[i].Meets {
			meets = append(meets, &m.res.serve[i])
		}
	}
	offers := m.res.rec.Offers
	if len(offers) != len(meets) || len(offers) == 0 {
		t.Fatalf("%d offers for %d plans meeting the targets", len(offers), len(meets))
	}
	for i, o := range offers {
		if o.Instance != meets[i].Offer.Instance || o.USDPerHour != meets[i].USDPerHour || o.GPUs != meets[i].GPUs {
			t.Errorf("offer %d is %s, plan %s", i, o.Instance.Type, meets[i].Offer.Name)
		}
	}
	text := offerDetail(nil, testStyles(), &offers[0], m.res, "2026-11-30", 100)
	for _, want := range []string{"TP ", "KV cache", "per million output tokens"} {
		if !strings.Contains(ansi.Strip(text), want) {
			t.Errorf("detail lacks %q:\n%s", want, ansi.Strip(text))
		}
	}
}

// TestServingOffersTable: the offers screen shows $ per million output
// tokens.
func TestServingOffersTable(t *testing.T) {
	m := servingApp(t, 160, 40)
	m = drive(t, m, ctrlO)
	text := screenText(m)
	if !strings.Contains(text, "$/Mtok out") || !strings.Contains(text, report.USD(m.res.serve[0].USDPerMOutput)) {
		t.Errorf("the offers screen lacks $/Mtok:\n%s", text)
	}
}

// TestPlainRowsKeepFigures: long instance names are cut before the
// figures, so TPOT and $/Mtok stay in view in a narrow panel.
func TestPlainRowsKeepFigures(t *testing.T) {
	rows := [][]string{{"azure", "Standard_ND96isr_H100_v5_with_a_long_name", "8×h100-sxm", "TP8×PP1×1", "12.5", "$2.53"}}
	out := plainRows([]string{"provider", "instance", "GPUs", "split", "TPOT ms", "$/Mtok"}, rows, 60, 3, 3, nil)
	for _, l := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("line of %d cells, want ≤ 60: %q", w, l)
		}
	}
	if !strings.Contains(out, "$/Mtok") || !strings.Contains(out, "$2.53") || !strings.Contains(out, "12.5") {
		t.Errorf("figures cut:\n%s", out)
	}
}

// TestServingCompactPanelShowsCost: on an 80×24 screen the compact panel
// drops the memory layout line before the cost per million tokens.
func TestServingCompactPanelShowsCost(t *testing.T) {
	m := servingApp(t, 80, 24)
	view := m.View().Content
	checkFits(t, view, 80, 24)
	text := strings.Join(strings.Fields(ansi.Strip(view)), " ")
	for _, want := range []string{"KV cache", "TPOT", "per million output tokens"} {
		if !strings.Contains(text, want) {
			t.Errorf("the 80×24 screen lacks %q:\n%s", want, ansi.Strip(view))
		}
	}
}

// TestServingSkipsBatchPages: serving an LLM asks neither the flash
// attention switch (vLLM picks its backend) nor a request count.
func TestServingSkipsBatchPages(t *testing.T) {
	m := servingApp(t, 120, 40)
	for _, p := range m.wiz.pages {
		if (p.title == "Requests" || p.title == "Memory savers") && !p.hide() {
			t.Errorf("page %q asked when serving an LLM", p.title)
		}
	}
}

// A GPU that cannot run the weight format asked for, with the fallback
// allowed, serves at what vLLM loads there; the panel and the offer
// detail say so in the report's words (report.WriteServeEstimate's ↺).
func TestServingFallbackShows(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40)) // the test catalog has no V100 offer
	a := m.a
	a.Task, a.Model, a.InferPrecision, a.PrecisionFallback = model.TaskInference, "llama-3.1-8b", model.FP8, true
	a.GPUKeys = []string{"v100-16gb"} // compute capability 7.0: no fp8 in vLLM
	a.Serve = serveAnswers{WeightFormat: serve.WeightFP8, KVCacheDType: serve.KVAuto, PromptTokens: "2K", OutputTokens: "512"}
	m.recompute()
	if m.res == nil || len(m.res.serve) == 0 || m.res.serve[0].Fallback.IsZero() {
		t.Fatalf("no fallback plan on a V100: %+v", m.res)
	}
	want := "↺ " + m.res.serve[0].Fallback.String()
	if !strings.Contains(want, "served as fp16 weights") {
		t.Fatalf("the plan's fallback reads %q", want)
	}
	p := m.panel
	p.cache = nil
	p.setSize(120, 40)
	flat := func(s string) string { return strings.Join(strings.Fields(ansi.Strip(s)), " ") }
	if !strings.Contains(flat(p.view(false)), "↺ NVIDIA V100") {
		t.Errorf("the panel does not show the fallback %q:\n%s", want, ansi.Strip(p.view(false)))
	}
	if len(m.res.rec.Offers) == 0 {
		t.Fatal("no serving offer")
	}
	if d := offerDetail(nil, testStyles(), &m.res.rec.Offers[0], m.res, "2026-11-30", 200); !strings.Contains(flat(d), want) {
		t.Errorf("the offer detail does not say %q:\n%s", want, ansi.Strip(d))
	} else if strings.Contains(d, "no dataset size") {
		t.Errorf("the serving detail speaks of a dataset:\n%s", ansi.Strip(d))
	}
}

// Trial L5: the serving offers screen said "sorted by price (s)" while
// its rows are in $ per million output tokens, which s does not change;
// and two instance types read the same once cut (gpu_8x_v1… for lambda's
// gpu_8x_v100 and gpu_8x_v100_n).
func TestServingOffersSortAndNames(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(80, 24))
	a := m.a
	a.Task, a.Model, a.InferPrecision, a.PrecisionFallback = model.TaskInference, "llama-3.1-8b", model.FP16, true
	a.GPUKeys = []string{"v100-16gb"}
	a.Serve = serveAnswers{WeightFormat: serve.WeightFP16, KVCacheDType: serve.KVAuto, PromptTokens: "2K", OutputTokens: "512"}
	m.recompute()
	m = drive(t, m, ctrlO)
	text := screenText(m)
	if !strings.Contains(text, "sorted by $ per million output tokens") || strings.Contains(text, "(s)") || strings.Contains(text, "s sort") {
		t.Errorf("the serving offers screen does not say what it is sorted by, or offers s:\n%s", text)
	}
	before := m.offers.table.Rows()[0][2]
	m = drive(t, m, runes("s"))
	if got := m.offers.table.Rows()[0][2]; got != before || !strings.Contains(screenText(m), "sorted by $ per million output tokens") {
		t.Errorf("s changed the serving order or its header: first row %q, was %q", got, before)
	}
	types := map[string]string{} // cut cell → instance type
	for i, r := range m.offers.table.Rows() {
		typ := m.offers.all[m.offers.shown[i]].Instance.Type
		if other, ok := types[r[2]]; ok && other != typ {
			t.Errorf("%s and %s both read %q", other, typ, r[2])
		}
		types[r[2]] = typ
	}
	if _, ok := types["gpu_8x_v100"]; !ok && len(types) < 2 {
		t.Fatalf("too few offers to compare: %v", types)
	}
}

// TestServingDefaultIsVLLMAuto: serving with the precision list's bf16 and
// no weight format chosen is vLLM's default --dtype auto, as on the command
// line without --precision: the Precision fallback answer follows it to
// allow (so the page says what is ranked), and a T4 (no bf16) serves at
// fp16 with the fallback said; choosing bf16 as the weight format makes it
// a near miss.
func TestServingDefaultIsVLLMAuto(t *testing.T) {
	plansOnT4 := func(wf serve.WeightFormat) []serve.Plan {
		cat := testCatalog(t)
		for _, in := range cat.Instances { // a T4 host: the test catalog has no GPU without bf16 to serve on
			if in.GPU == "l4" {
				in.Type, in.GPU = "t4-host", "t4"
				cat.Instances = append(cat.Instances, in)
				break
			}
		}
		m := start(t, newTestApp(t, cat, Options{}), size(120, 40))
		a := m.a
		a.Task, a.Model, a.InferPrecision = model.TaskInference, "llama-3.1-8b", model.BF16
		a.Serve = serveAnswers{WeightFormat: wf, KVCacheDType: serve.KVAuto}
		a.reconcile(cat, nil) // as every message does: the Precision fallback answer follows the request
		if want := wf == ""; a.PrecisionFallback != want {
			t.Errorf("weight format %q: the Precision fallback answer is %v, want %v (allow is vLLM's --dtype auto)", wf, a.PrecisionFallback, want)
		}
		m.recompute()
		var out []serve.Plan
		for _, p := range m.res.serve {
			if p.Offer.GPU != nil && p.Offer.GPU.Key == "t4" {
				out = append(out, p)
			}
		}
		if len(out) == 0 {
			t.Fatal("no T4 plan in the test catalog's serving offers")
		}
		return out
	}
	for _, p := range plansOnT4("") {
		if p.FallbackFrom != serve.WeightBF16 || p.Serving.WeightFormat != serve.WeightFP16 {
			t.Errorf("default on T4: format %s from %q, want fp16 from bf16 (%q)", p.Serving.WeightFormat, p.FallbackFrom, p.Reasons)
		}
	}
	for _, p := range plansOnT4(serve.WeightBF16) {
		if p.Meets || p.FallbackFrom != "" || !strings.Contains(strings.Join(p.Reasons, "; "), "has no bf16") {
			t.Errorf("bf16 chosen on T4: meets %v, fallback from %q, reasons %q", p.Meets, p.FallbackFrom, p.Reasons)
		}
	}
}

// TestServingExportWritesNoJob: the TOML ctrl+e writes for serving has no
// [estimate] (the batch estimate is not vLLM's layout) and no job hours
// or cost in [selection] (a serving offer's "job" is a million output
// tokens), so the file does not contradict the screen (trial 3 M2).
func TestServingExportWritesNoJob(t *testing.T) {
	m := servingApp(t, 120, 40)
	c, err := exportConfigOf(m.a, m.res, nil, "2026-11-30")
	if err != nil {
		t.Fatal(err)
	}
	if c.Estimate != nil {
		t.Errorf("serving export writes [estimate]: %+v", c.Estimate)
	}
	if c.Selection == nil || c.Selection.JobHours != 0 || c.Selection.JobUSD != 0 || c.Selection.USDPerHour <= 0 {
		t.Errorf("serving export's selection: %+v", c.Selection)
	}
}

// TestServingTPOTDefaultSaid: the TPOT question says its real default
// (an empty answer plans for serve.DefaultTPOTTargetMs, as the command
// line does), in English and Chinese, and "none" asks for no target,
// which a file's tpot_ms = 0 keeps through the configurator.
func TestServingTPOTDefaultSaid(t *testing.T) {
	for _, c := range []struct {
		opts Options
		want string
	}{{Options{}, "empty: 100, faster than people read; none: no target"}, {zhOptions(), "留空：100（快于阅读速度）；none：不限"}} {
		m := start(t, newTestApp(t, testCatalog(t), c.opts), size(120, 40))
		var desc string
		for _, p := range m.wiz.pages {
			if p.title != "Serving" {
				continue
			}
			for _, f := range p.fields(false) {
				if v := strings.Join(strings.Fields(ansi.Strip(f.View())), " "); strings.Contains(v, "none") {
					desc += v + "\n"
				}
			}
		}
		if !strings.Contains(desc, c.want) {
			t.Errorf("%v: no TPOT field says %q:\n%s", c.opts.Lang, c.want, desc)
		}
	}
	m := servingApp(t, 120, 40)
	m.a.Serve.TPOTMs = ""
	cfg, err := m.a.config()
	if err != nil || cfg.Workload.Serve.TPOTTargetMs != 0 || cfg.Workload.Serve.NoTPOTTarget {
		t.Fatalf("empty TPOT: %+v, %v; want the default left to the model", cfg.Workload.Serve, err)
	}
	m.a.Serve.TPOTMs = "None"
	if cfg, err = m.a.config(); err != nil || !cfg.Workload.Serve.NoTPOTTarget {
		t.Fatalf("TPOT none: %+v, %v; want no target", cfg.Workload.Serve, err)
	}
	if back := answersFromConfig(testCatalog(t), &cfg); back.Serve.TPOTMs != "none" {
		t.Errorf("a file's tpot_ms = 0 reads back as %q, want none", back.Serve.TPOTMs)
	}
}
