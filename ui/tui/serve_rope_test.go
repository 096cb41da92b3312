package tui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/language"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/launch"
	"github.com/gpuplan/gpuplan/model/serve"
)

// ropeCatalog is the test catalog with Llama 2 7B's rope_theta (its
// config.json's 10000), which a YaRN override must carry (serve.RopeOn),
// so its 4096 positions can be scaled.
func ropeCatalog(tb testing.TB) *model.Catalog {
	tb.Helper()
	cat := testCatalog(tb)
	a, err := cat.Model("llama-2-7b")
	if err != nil {
		tb.Fatal(err)
	}
	a.RopeTheta = 10000
	return cat
}

// ropeFile is a serving request past Llama 2 7B's 4096 positions with the
// YaRN scaling that holds it: 4096 × 2 = 8192.
const ropeFile = `schema_version = 1
[workload]
task = "inference"
model = "llama-2-7b"
[serve]
max_model_len = 8192
rope_scaling = "yarn:2"
`

// TestServingRopeFromFile: a file's [serve] rope_scaling survives the
// configurator: the panel plans at its max_model_len with the scaling
// (it was dropped from the answers, so the plan was refused as above
// the model's positions), and a save writes it back.
func TestServingRopeFromFile(t *testing.T) {
	cat := ropeCatalog(t)
	c, err := config.Decode([]byte(ropeFile))
	if err != nil {
		t.Fatal(err)
	}
	want := serve.RopeScaling{Type: "yarn", Factor: 2}
	if c.Workload.Serve.RopeScaling != want {
		t.Fatalf("the file reads rope_scaling %+v, want %+v", c.Workload.Serve.RopeScaling, want)
	}
	path := filepath.Join(t.TempDir(), "t.toml")
	m := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: path}), size(120, 40))
	if got, err := m.a.config(); err != nil || got.Workload.Serve.RopeScaling != want {
		t.Fatalf("the answers' [serve] rope_scaling = %+v (%v), want %+v", got.Workload.Serve.RopeScaling, err, want)
	}
	if m.res == nil || m.res.err != nil || len(m.res.serve) == 0 {
		t.Fatalf("no serving plan for the file:\n%s", screenText(m))
	}
	if s := m.res.serve[0].Serving; s.MaxModelLen != 8192 || s.RopeScaling != want {
		t.Errorf("the plan serves max_model_len %d with rope_scaling %q, want 8192 with yarn:2", s.MaxModelLen, s.RopeScaling)
	}
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no file written (%v):\n%s", err, screenText(m))
	}
	if !strings.Contains(string(b), `rope_scaling = "yarn:2"`) {
		t.Errorf("the saved file lost rope_scaling:\n%s", b)
	}
	back, err := config.Decode(b)
	if err != nil || back.Workload.Serve.RopeScaling != want {
		t.Errorf("the saved file reads rope_scaling %+v (%v), want %+v", back.Workload.Serve.RopeScaling, err, want)
	}
}

// TestServingAnswersKeepEveryKey: every field of a [serve] request goes
// through the configurator's answers and back unchanged, asked or not
// (rope_scaling was dropped, silently, on a save). A field added to
// serve.Serving fails here until it is set below, or named as derived.
func TestServingAnswersKeepEveryKey(t *testing.T) {
	in := serve.Serving{Tuning: &serve.Tuning{}, WeightFormat: serve.WeightAWQ, KVCacheDType: serve.KVFP8, MaxModelLen: 8192, PromptTokens: 3000, OutputTokens: 500,
		RopeScaling: serve.RopeScaling{Type: "yarn", Factor: 2, Original: 4096}, Concurrency: 16, TTFTTargetMs: 800, TPOTTargetMs: 40,
		TP: 2, PP: 2, Replicas: 3, Nodes: 2, SharedPrefixTokens: 512, LoRA: &serve.LoRA{Name: "a", Rank: 16, MaxRank: 16, MaxLoRAs: 1},
		GPUMemoryUtilization: 0.85, MaxNumBatchedTokens: 4096, MaxNumSeqs: 64}
	// Derived again from the request or the search (config.WorkloadAnswers
	// .Serving, SearchAnswers.ServeSearch), or another field's
	// alternative, never a file's own key.
	derived := map[string]bool{"RequestsPerSec": true, "DefaultTPOT": true, "NoTPOTTarget": true, "PerToken": true, "AsReleased": true,
		"AllowPrecisionFallback": true, "DTypeAuto": true, "BudgetMonthUSD": true, "HoursPerMonth": true, "AllowMultiNode": true}
	rv := reflect.ValueOf(in)
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		if f.IsExported() && !derived[f.Name] && rv.Field(i).IsZero() {
			t.Errorf("serve.Serving.%s is not set in the sample: set it, or name it derived", f.Name)
		}
	}
	var a serveAnswers
	a.fromServing(in)
	got, err := a.serving()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, in) {
		t.Errorf("[serve] through the answers:\n got %+v\nwant %+v", got, in)
	}
	// Through the whole answers, as a file opened and saved: max_model_len
	// is the context length question's answer, not a key kept aside
	// (kept, it won over the question).
	c, err := config.Decode([]byte("schema_version = 1\n[workload]\ntask = \"inference\"\nmodel = \"llama-2-7b\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	c.Workload.Serve = in
	all := answersFromConfig(ropeCatalog(t), &c)
	if all.Length != "8192" || all.Serve.extra.MaxModelLen != 0 {
		t.Errorf("max_model_len 8192: the question's answer %q, kept aside %d; want the answer 8192, none aside", all.Length, all.Serve.extra.MaxModelLen)
	}
	if back, err := all.config(); err != nil || !reflect.DeepEqual(back.Workload.Serve, in) {
		t.Errorf("[serve] through the answers of a file (%v):\n got %+v\nwant %+v", err, back.Workload.Serve, in)
	}
	// The load as a rate, and no TPOT target, come back as given too.
	rate := serve.Serving{RequestsPerSec: 2.5, NoTPOTTarget: true}
	a = serveAnswers{}
	a.fromServing(rate)
	if got, err := a.serving(); err != nil || !reflect.DeepEqual(got, rate) {
		t.Errorf("[serve] through the answers: %+v (%v), want %+v", got, err, rate)
	}
}

// TestServingRopeField: the Serving page asks for a YaRN scaling as
// --rope-scaling takes it. Above the model's positions the panel and the
// page's check name the field, not the flag; a factor out of range is
// refused by the field in one line; yarn:2 typed plans the context length
// asked, and the save and the launch files carry it.
func TestServingRopeField(t *testing.T) {
	cat := ropeCatalog(t)
	c, err := config.Decode([]byte(strings.Replace(ropeFile, "rope_scaling = \"yarn:2\"\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.toml")
	m := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: path}), size(120, 40))
	const said = "context length 8192 is above the model's 4096 positions; vLLM serves a RoPE model past them with YaRN: give YaRN scaling yarn:2 on the Serving page (4096 × 2 = 8192 positions)"
	if m.res == nil || m.res.err == nil || m.res.err.Error() != said {
		t.Fatalf("the panel's refusal = %v, want %q", m.res.err, said)
	}
	if s := panelText(m); !strings.Contains(s, "give YaRN scaling yarn:2 on the Serving page") || strings.Contains(s, "--rope-scaling") {
		t.Errorf("the panel does not name the field:\n%s", panelText(m))
	}
	if err := servingError(m.a, cat); err == nil || err.Error() != said {
		t.Errorf("the Serving page's check = %v, want %q", err, said)
	}
	serving := pageTitled(t, m, "Serving")
	m.wiz.form.goTo(serving)
	m.layout()
	m = drive(t, m, repeat(enter, 4)...) // weight format, KV cache, prompt and output tokens
	m = drive(t, m, typed("yarn:1")...)
	if m.a.Serve.RopeScaling != "yarn:1" {
		t.Fatalf("typed into the YaRN field: %q; the page:\n%s", m.a.Serve.RopeScaling, screenText(m))
	}
	m = drive(t, m, enter)
	if want := `rope scaling factor "1": want a number above 1 and at most 64, such as 4 (yarn:4)`; !strings.Contains(m.footer.status, want) {
		t.Errorf("footer %q, want %q", m.footer.status, want)
	}
	m = drive(t, m, replace("yarn:2")...)
	if m.res == nil || m.res.err != nil || len(m.res.serve) == 0 {
		t.Fatalf("no plan with yarn:2: %v\n%s", m.res.err, screenText(m))
	}
	want := serve.RopeScaling{Type: "yarn", Factor: 2}
	if s := m.res.serve[0].Serving; s.MaxModelLen != 8192 || s.RopeScaling != want {
		t.Errorf("the plan serves max_model_len %d with rope_scaling %q, want 8192 with yarn:2", s.MaxModelLen, s.RopeScaling)
	}
	if err := servingError(m.a, cat); err != nil {
		t.Errorf("the page's check with yarn:2: %v", err)
	}
	// The launch files pass it as vLLM's --hf-overrides.
	o := &m.res.rec.Offers[0]
	cfg, err := exportConfigOf(m.a, m.res, o, m.cat.AsOf)
	if err != nil {
		t.Fatal(err)
	}
	d := newExportDialog("x.sh", cfg, o, launch.FormatTorchrun, newTheme(), 60, nil, m.res.serving, nil)
	out, _, _, err := d.again(newTheme()).payload()
	if err != nil || !strings.Contains(string(out), "--hf-overrides") || !strings.Contains(string(out), `"factor":2`) {
		t.Errorf("the vLLM script (%v) lacks the YaRN --hf-overrides:\n%s", err, out)
	}
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), `rope_scaling = "yarn:2"`) {
		t.Errorf("the saved file (%v) lacks rope_scaling:\n%s\n%s", err, b, screenText(m))
	}
}

// TestServingRopeFieldChinese: the field and the refusal naming it are
// said in Chinese.
func TestServingRopeFieldChinese(t *testing.T) {
	cat := ropeCatalog(t)
	c, err := config.Decode([]byte(strings.Replace(ropeFile, "rope_scaling = \"yarn:2\"\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	opts := zhOptions()
	opts.Config = &c
	m := start(t, newTestApp(t, cat, opts), size(120, 40))
	if s := panelText(m); !strings.Contains(s, "请在“推理服务”页的“YaRN 缩放”中填 yarn:2") {
		t.Errorf("the Chinese panel does not name the field:\n%s", panelText(m))
	}
	var fields string
	for _, f := range m.wiz.pages[pageTitled(t, m, "Serving")].fields(false) {
		fields += strings.Join(strings.Fields(ansi.Strip(f.View())), " ") + "\n"
	}
	if !strings.Contains(fields, "YaRN 缩放") || !strings.Contains(fields, "超出模型的位置数") {
		t.Errorf("the Serving page's fields in Chinese:\n%s", fields)
	}
}

// panelText is the panel's text alone, its lines joined by spaces.
func panelText(m app) string {
	p := m.panel
	p.cache = nil
	return strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(p.view(false)), "│", " ")), " ")
}

// TestServingRopeSaid: the panel's serving summary says the YaRN scaling
// the plan is for, in recommend's words ("YaRN × 2 over 4096 positions:
// 8192", report's ropeIn), under the request line, in English and
// Chinese, at 120 and 80 columns (24 rows too); a request without one says none.
func TestServingRopeSaid(t *testing.T) {
	cat := ropeCatalog(t)
	c, err := config.Decode([]byte(ropeFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lang language.Tag
		want string
	}{
		{language.English, "YaRN × 2 over 4096 positions: 8192"},
		{language.SimplifiedChinese, "YaRN 把 4096 个位置扩展 2 倍：8192"},
	} {
		for _, sz := range [][2]int{{120, 40}, {80, 40}, {80, 24}} {
			m := start(t, newTestApp(t, cat, Options{Config: &c, Lang: tc.lang}), size(sz[0], sz[1]))
			p := m.panel
			p.cache = nil
			view := p.view(false)
			checkFits(t, view, sz[0], sz[1])
			if s := panelText(m); !strings.Contains(s, tc.want) {
				t.Errorf("%v %dx%d: the panel does not say %q:\n%s", tc.lang, sz[0], sz[1], tc.want, ansi.Strip(view))
			}
		}
	}
	plain, err := config.Decode([]byte(strings.Replace(strings.Replace(ropeFile, "rope_scaling = \"yarn:2\"\n", "", 1), "8192", "4096", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if s := panelText(start(t, newTestApp(t, cat, Options{Config: &plain}), size(120, 40))); strings.Contains(s, "YaRN ×") {
		t.Errorf("a request without YaRN scaling says one:\n%s", s)
	}
}
