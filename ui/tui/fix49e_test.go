package tui

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuplan/gpuplan/model"
)

func repeat(k tea.Msg, n int) []tea.Msg {
	out := make([]tea.Msg, n)
	for i := range out {
		out[i] = k
	}
	return out
}

// TestRegionKeptAfterOffers: a region ticked on "Where", then a visit to
// the offers list from the Price page and back, keeps the region (walk
// 49e: esc esc dropped "Europe" and the panel went back to every offer:
// the form rebuilt after the offers focused the regions field before its
// options came, and huh's focus wrote the empty selection back).
func TestRegionKeptAfterOffers(t *testing.T) {
	for _, back := range []tea.Msg{esc, shiftTab} {
		m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40))
		m = drive(t, m, repeat(tab, 19)...)
		if !strings.Contains(screenText(m), "Regions") {
			t.Fatalf("not on Where:\n%s", screenText(m))
		}
		m = drive(t, m, tab, down, down, runes("x"))
		if !slices.Equal(m.a.Regions, []string{"europe"}) {
			t.Fatalf("regions %q after x, want europe\n%s", m.a.Regions, screenText(m))
		}
		before := m.a.Regions
		m = drive(t, m, msgs(enter, repeat(tab, 4), enter)...)
		if !strings.Contains(screenText(m), "All offers") {
			t.Fatalf("not on the offers:\n%s", screenText(m))
		}
		m = drive(t, m, esc, back)
		if !slices.Equal(m.a.Regions, before) {
			t.Errorf("back with %v: regions %q, want %q\n%s", back, m.a.Regions, before, screenText(m))
		}
		if s := screenText(m); !strings.Contains(s, "✓ Europe") {
			t.Errorf("back with %v: Europe not ticked:\n%s", back, s)
		}
	}
}

// TestMultiSelectsKeptAfterOffers: every list answer on the last pages
// (providers, regions, pricing) survives the offers list and the way back.
func TestMultiSelectsKeptAfterOffers(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40))
	m = drive(t, m, repeat(tab, 19)...)
	m = drive(t, m, down, runes("x"), tab, down, runes("x"), enter, right)
	want := *m.a
	if len(want.Providers) == 0 || len(want.Regions) == 0 || want.Pricing == "" {
		t.Fatalf("setup: providers %q regions %q pricing %q", want.Providers, want.Regions, want.Pricing)
	}
	m = drive(t, m, msgs(repeat(tab, 4), enter, esc, esc, esc, tab, tab)...)
	if !slices.Equal(m.a.Providers, want.Providers) || !slices.Equal(m.a.Regions, want.Regions) || m.a.Pricing != want.Pricing {
		t.Errorf("after the offers and back: providers %q regions %q pricing %q, want %q %q %q",
			m.a.Providers, m.a.Regions, m.a.Pricing, want.Providers, want.Regions, want.Pricing)
	}
}

// TestServingPairBlocks: prompt plus output tokens over the context is an
// error of no one field; the Serving page is not left with it, the offers
// show no row from before it, and a phase is not added from one.
func TestServingPairBlocks(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40))
	a := m.a
	a.Task, a.Model, a.InferPrecision = model.TaskInference, "gpt-oss-120b", model.BF16
	a.Batch, a.Length = "32", "2048"
	a.Serve = serveAnswers{PromptTokens: "1000", OutputTokens: "500"}
	m.recompute()
	if m.res.err != nil || len(m.res.rec.Offers) == 0 {
		t.Fatalf("setup: err %v, %d offers", m.res.err, len(m.res.rec.Offers))
	}
	next, _ := m.toOffers()
	m = next.(app)
	old := m.offers.selected()
	if old == nil {
		t.Fatal("setup: no offer selected")
	}
	next, _ = m.toWizard()
	m = next.(app)

	a.Serve.PromptTokens = "5000"
	m.recompute()
	if m.res.err == nil || !strings.Contains(m.res.err.Error(), "exceed max_model_len 2048") {
		t.Fatalf("err %v, want the pair's", m.res.err)
	}
	if n := len(m.res.rec.Offers); n != 0 {
		t.Errorf("%d offers ranked under the error", n)
	}
	next, _ = m.toOffers()
	m = next.(app)
	if o := m.offers.selected(); o != nil {
		t.Errorf("offers list selects %s under the error", o.Instance.Type)
	}
	m = drive(t, m, enter)
	if m.screen == screenDetail {
		t.Error("enter opened an offer's detail under the error")
	}
	next, _ = m.addPhase(old)
	m = next.(app)
	if m.screen == screenPlan || !strings.Contains(m.footer.status, "fix the answers first") {
		t.Errorf("a phase from invalid answers: screen %v, footer %q", m.screen, m.footer.status)
	}

	// The Serving page is not left forward.
	next, _ = m.toWizard()
	m = next.(app)
	serving := pageTitled(t, m, "Serving")
	m.wiz.form.goTo(serving)
	m.layout()
	m = drive(t, m, repeat(enter, 12)...)
	if got := m.wiz.focusedPage(); got != serving {
		t.Errorf("enter left the Serving page for %q", m.wiz.pages[got].title)
	}
	if !strings.Contains(m.footer.status, "max_model_len") {
		t.Errorf("footer %q does not say the error", m.footer.status)
	}
}

// TestNoFitSaysWhatBlocks: 100000 GPUs fit no instance; memory is not
// what blocks, so no memory change is offered, the panel names auto GPUs
// and says the global batch warning recommend prints (walk 49e): the
// QLoRA recipe's nearest batch on them, one sample per GPU.
func TestNoFitSaysWhatBlocks(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40))
	m.a.Distribution, m.a.GPUs = distNode, "100000"
	m.recompute()
	if n := len(m.res.rec.Offers); n != 0 {
		t.Fatalf("%d offers for 100000 GPUs", n)
	}
	s := strings.Join(strings.Fields(screenText(m)), " ")
	for _, bad := range []string{"ZeRO-3", "8-bit AdamW", "What would fit"} {
		if strings.Contains(s, bad) {
			t.Errorf("the panel offers %q, a memory change, where the GPU count blocks:\n%s", bad, screenText(m))
		}
	}
	for _, want := range []string{"with GPUs: auto", "a global batch of 100000"} {
		if !strings.Contains(s, want) {
			t.Errorf("the panel lacks %q:\n%s", want, screenText(m))
		}
	}
}

// TestSeqPastPositionsWarned: a sequence past the model's positions is
// warned of in the panel, as estimate warns of it (walk 49e).
func TestSeqPastPositionsWarned(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40))
	m.a.Length = "200000"
	m.recompute()
	if s := strings.Join(strings.Fields(screenText(m)), " "); !strings.Contains(s, "seq_len 200000 exceeds the model's 131072 positions") {
		t.Errorf("no warning of the positions:\n%s", screenText(m))
	}
}

// TestFloatGPUsHint: Llama 3.1 405B QLoRA on the default single GPU, on
// OCI, ranks one GPU of a 4- or 8-GPU host first, where letting the count
// float (recommend without --gpus) is far cheaper: the panel says so and
// names the answers (walk 49e, on Qwen3 235B, whose QLoRA no longer fits
// one GPU since its fused experts stay 16-bit).
func TestFloatGPUsHint(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40))
	// On OCI, whose B300 and MI355X hosts hold 4 and 8 GPUs: since QLoRA's
	// host RAM is a shard a process (walk55), verda's 1B300.30V (one B300)
	// serves the single GPU anywhere, as it should.
	m.a.Model, m.a.Providers = "llama-3.1-405b", []string{"oci"}
	m.afterForm()
	m.recompute()
	if m.res.floated == nil {
		t.Fatalf("no floated offer; best %+v", m.res.best())
	}
	s := strings.Join(strings.Fields(strings.ReplaceAll(screenText(m), "│", "")), " ")
	if !strings.Contains(s, "letting the GPU count float (Distribution: one node, several GPUs, then GPUs: auto)") {
		t.Errorf("the panel does not name floating the GPU count:\n%s", screenText(m))
	}
	// The default 8B fits one GPU it pays for: no second ranking.
	m = start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40))
	if m.res.floated != nil {
		t.Errorf("floated %s for the default", m.res.floated.Instance.Type)
	}
}

// TestPanelFollowsEndAndSearch: End on Task and a move through a search's
// matches set the answer the cursor is on, so the panel follows them
// (walk 49e).
func TestPanelFollowsEndAndSearch(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40))
	m = drive(t, m, tab, tea.KeyPressMsg{Code: tea.KeyEnd})
	if m.a.Task != model.TaskInference {
		t.Errorf("End on Task: task %s, want inference", m.a.Task)
	}
	m = start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(120, 40))
	m = drive(t, m, tab, enter) // onto the model list
	m = drive(t, m, msgs(runes("/"), typed("qwen3"))...)
	first := m.a.Model
	m = drive(t, m, down)
	_, hovered, _ := asSelect(m.wiz.form.GetFocusedField())
	v, _ := hovered()
	if m.a.Model != v || m.a.Model == first {
		t.Errorf("down in a search: model %q (was %q), the cursor on %v", m.a.Model, first, v)
	}
	m = drive(t, m, esc)
	if m.a.Model != first && m.a.Model != "llama-3.1-8b" {
		t.Errorf("esc after a search: model %q", m.a.Model)
	}
}

// TestPickedAfterExportWording: after a plain ctrl+e the panel's picked
// offer is the one exported, not "the file's" (no file was opened; walk
// 49e); a reopened file's is still the file's.
func TestPickedAfterExportWording(t *testing.T) {
	cat := testCatalog(t)
	m := start(t, newTestApp(t, cat, Options{}), size(120, 40), ctrlO, down, down, down, enter)
	path := filepath.Join(t.TempDir(), "pick.toml")
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter, esc, esc)...)
	text := screenText(m)
	if !strings.Contains(text, "Picked offer · the one exported") || strings.Contains(text, "the file's") {
		t.Errorf("after ctrl+e the panel says:\n%s", text)
	}
	c := roundTrip(t, cat, m, path)
	r := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: path}), size(120, 40))
	if text := screenText(r); !strings.Contains(text, "Picked offer · the file's") {
		t.Errorf("reopened, the panel says:\n%s", text)
	}
}

// TestCustomShapeOneLimit: the panel's error for a custom hidden size
// names the limit the shape is held to, 1048576, not 16777216, which the
// estimate then refused (walk 49e).
func TestCustomShapeOneLimit(t *testing.T) {
	a := defaultAnswers(testCatalog(t))
	a.Model, a.Layers, a.Hidden, a.Heads, a.Vocab = modelCustom, "32", "16777216", "32", "32000"
	_, err := a.custom()
	if err == nil || !strings.Contains(err.Error(), "from 0 to 1048576") {
		t.Errorf("hidden 16777216: %v, want the limit 1048576", err)
	}
}

// TestDatasetZeroRefused: a dataset of 0 is refused as the command line
// refuses --dataset-tokens 0; empty is still no dataset (walk 49e).
func TestDatasetZeroRefused(t *testing.T) {
	a := defaultAnswers(testCatalog(t))
	a.Dataset = "0"
	if _, err := a.config(); err == nil || !strings.Contains(err.Error(), "want at least 1") {
		t.Errorf("dataset 0: %v", err)
	}
	a.Dataset = ""
	if _, err := a.config(); err != nil {
		t.Errorf("no dataset: %v", err)
	}
}

// TestFullHelpGuide: the full help lists the questions' tab and
// shift+tab, x and ctrl+a, and ctrl+t before the plan has a phase; an
// offer's detail longer than the screen says it scrolls (walk 49e).
func TestFullHelpGuide(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), runes("?"))
	s := screenText(m)
	for _, want := range []string{"tab", "next question", "shift+tab", "previous question", "x/space", "ctrl+a", "ctrl+t"} {
		if !strings.Contains(s, want) {
			t.Errorf("the full help lacks %q:\n%s", want, s)
		}
	}
	d := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 24), ctrlO, enter)
	if d.screen != screenDetail {
		t.Fatal("no detail")
	}
	if d.detail.vp.TotalLineCount() <= d.detail.vp.Height() {
		t.Fatal("the detail fits 24 lines: the test needs a longer one")
	}
	if s := screenText(d); !strings.Contains(s, "scroll") {
		t.Errorf("a detail longer than the screen does not say it scrolls:\n%s", s)
	}
}
