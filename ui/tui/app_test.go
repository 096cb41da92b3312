package tui

import (
	"fmt"
	"reflect"
	"strings"

	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpuplan/gpuplan/model"
)

// bertAnswers answers every question for BERT-Large fine-tuning on one
// GPU (SQuAD-like: batch 32 × 384 tokens, 88k samples, 2 epochs),
// starting from the defaults, and submits the last page.
func bertAnswers() []tea.Msg {
	return msgs(
		enter,         // framework: PyTorch
		up, up, enter, // task: qlora → full fine-tune
		runes("/"), typed("bert-large"), enter, // model
		enter,                                       // precision amp-bf16
		replace("32"), enter, replace("384"), enter, // batch, length
		enter,        // optimizer adamw
		enter, enter, // checkpointing off, flash on
		replace("88k"), enter, left, enter, replace("2"), enter, // dataset 88k samples, 2 epochs
		enter,        // single GPU
		enter, enter, // providers and regions: all
		enter, enter, enter, enter, // pricing, budget, hours, deadline
	)
}

func TestBertFlow(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(120, 40)}, bertAnswers()...)...)
	if m.screen != screenOffers {
		t.Fatalf("after the last question the screen is %v, want the offers\n%s", m.screen, screenText(m))
	}
	c, err := m.a.config()
	if err != nil {
		t.Fatal(err)
	}
	w := c.Workload
	if w.Model != "bert-large" || w.Task != "finetune" || w.BatchSize != 32 || w.SeqLen != 384 || w.DatasetSamples != 88000 || w.Epochs != 2 || w.GPUs != 1 {
		t.Errorf("answers = %+v", w)
	}
}

// TestGolden pins the screens at three terminal sizes: the first screen,
// a filled-in form, the offers table, an offer's detail, the export
// dialog; and the too-small screen.
func TestGolden(t *testing.T) {
	answered := bertAnswers()
	filled := answered[:len(answered)-4] // on the last page, not submitted
	screens := []struct {
		name string
		keys []tea.Msg
	}{
		{"first", nil},
		{"filled", filled},
		{"offers", answered},
		{"detail", append(append([]tea.Msg{}, answered...), enter)},
		{"export", append(append([]tea.Msg{}, answered...), enter, ctrlE)},
	}
	for _, sc := range screens {
		for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
			t.Run(fmt.Sprintf("%s/%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				m := start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(sz[0], sz[1])}, sc.keys...)...)
				view := m.View().Content
				checkFits(t, view, sz[0], sz[1])
				golden.RequireEqual(t, []byte(ansi.Strip(view)))
			})
		}
	}
	for _, sz := range [][2]int{{59, 19}, {40, 10}} {
		t.Run(fmt.Sprintf("too-small/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{}), size(sz[0], sz[1]))
			view := m.View().Content
			if text := strings.Join(strings.Fields(ansi.Strip(view)), " "); !strings.Contains(text, "terminal too small (needs at least 60×20)") {
				t.Errorf("view lacks the too-small message:\n%s", view)
			}
			checkFits(t, view, sz[0], sz[1])
			golden.RequireEqual(t, []byte(ansi.Strip(view)))
		})
	}
}

// The model list offers "Hugging Face config.json…" only when a reader
// is wired in; its path question is asked, and the panel shows the model.
func TestHFConfigEntry(t *testing.T) {
	cat := testCatalog(t)
	for _, o := range modelOptions(cat, false) {
		if o.Value == modelHF {
			t.Error("config.json offered without a reader")
		}
	}
	bert, _ := cat.Model("bert-large")
	read := func(path string, _ model.Task) (model.Architecture, model.Precision, []string, error) {
		if path != "ckpt/config.json" {
			return model.Architecture{}, "", nil, fmt.Errorf("open %s: no such file or directory", path)
		}
		a := *bert
		a.Key, a.Name = "", "my-bert"
		return a, model.FP16, nil, nil
	}
	m := start(t, newTestApp(t, cat, Options{ReadHFConfig: read}), size(120, 40), enter, enter, runes("/"))
	m = drive(t, m, append(typed("hugging"), enter)...)
	if m.a.Model != modelHF || m.wiz.pages[m.wiz.focusedPage()].title != "Hugging Face config.json" {
		t.Fatalf("model %q, page %q", m.a.Model, m.wiz.pages[m.wiz.focusedPage()].title)
	}
	m = drive(t, m, typed("ckpt/config.jso")...)
	if !strings.Contains(screenText(m), "no such file") {
		t.Errorf("a wrong path does not show its error:\n%s", screenText(m))
	}
	m = drive(t, m, runes("n"))
	if !strings.Contains(screenText(m), "my-bert") {
		t.Errorf("the panel does not show the config.json's model:\n%s", screenText(m))
	}
	if m.a.Batch != fmt.Sprint(bert.DefaultBatch) || m.a.Length != fmt.Sprint(bert.DefaultSeqLen) {
		t.Errorf("batch %s × %s, want the config.json model's defaults %d × %d", m.a.Batch, m.a.Length, bert.DefaultBatch, bert.DefaultSeqLen)
	}
	// Reopened from a file, the file's batch stands.
	c0, _ := m.a.config()
	c0.Workload.BatchSize = 3
	again := newTestApp(t, cat, Options{ReadHFConfig: read, Config: &c0})
	if again.a.Batch != "3" || !again.res.ok() {
		t.Errorf("reopened: batch %q (want 3), result %v", again.a.Batch, again.res.err)
	}
	c, err := m.a.config()
	if err != nil || c.Workload.HFConfig != "ckpt/config.json" {
		t.Errorf("config() = %+v, %v", c.Workload, err)
	}
}

// A custom shape is asked for, estimated, exported and reloaded.
func TestCustomModel(t *testing.T) {
	cat := testCatalog(t)
	m := start(t, newTestApp(t, cat, Options{}), size(120, 40), enter, enter, runes("/"))
	m = drive(t, m, append(typed("custom"), enter)...)
	m = drive(t, m, msgs(replace("1B"), enter, replace("16"), enter, replace("2048"), enter, replace("16"), enter, replace("50000"))...)
	if !m.res.ok() || !strings.Contains(m.res.workload.Model.Name, "16 layers × 2048 hidden") {
		t.Fatalf("custom estimate: %v %q", m.res.err, m.res.workload.Model.Name)
	}
	b, err := exportConfig(m.a, m.res, nil, cat.AsOf)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := model.DecodeConfig(b)
	if err != nil {
		t.Fatal(err)
	}
	back := answersFromConfig(cat, &cfg)
	c1, _ := m.a.config()
	c2, _ := back.config()
	if !reflect.DeepEqual(c1, c2) {
		t.Errorf("custom model round trip:\n got %+v\nwant %+v", c2.Workload.Custom, c1.Workload.Custom)
	}
}

// When no offer runs the workload the panel says so and lists what would
// fit the largest GPU.
func TestFitAdviceWhenNothingFits(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), tab, up, up, enter, runes("/"))
	m = drive(t, m, append(typed("llama 3.1 70b"), enter)...) // full fine-tune of 70B on one GPU
	text := screenText(m)
	for _, want := range []string{"no offer runs this workload", "What would fit", "ZeRO-3", "QLoRA", "needs 1170.2 GiB per GPU"} {
		if !strings.Contains(text, want) {
			t.Errorf("panel lacks %q:\n%s", want, text)
		}
	}
	checkFits(t, m.View().Content, 120, 40)
}
