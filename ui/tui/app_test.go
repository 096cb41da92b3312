package tui

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"

	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/mattn/go-runewidth"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/ui/report"
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
		enter,               // optimizer adamw
		enter, enter, enter, // checkpointing off, flash on, optimizer in backward off
		enter, enter, // recipe auto, loss hf-fp32
		replace("88k"), enter, left, enter, replace("2"), enter, // dataset 88k samples, 2 epochs
		enter,        // single GPU
		enter, enter, // providers and regions: all
		enter, enter, enter, enter, enter, // pricing, budget, job budget, hours, deadline
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
	if w.Model != "bert-large" || w.Task != "finetune" || w.MicroBatch != 32 || w.SeqLen != 384 || w.DatasetSamples != 88000 || w.Epochs != 2 || w.GPUs != 1 {
		t.Errorf("answers = %+v", w)
	}
}

// TestOptimizerInBackwardQuestion: the Memory savers page asks whether
// the optimizer steps in backward (torchtune optimizer_in_bwd), and the
// answer reaches the workload the configurator writes.
func TestOptimizerInBackwardQuestion(t *testing.T) {
	answers := msgs(
		enter, up, up, enter, runes("/"), typed("bert-large"), enter, enter,
		replace("32"), enter, replace("384"), enter, enter,
		enter, enter, left, enter, // checkpointing off, flash on, optimizer in backward on
		enter, enter, replace("88k"), enter, left, enter, replace("2"), enter,
		enter, enter, enter, enter, enter, enter, enter, enter,
	)
	m := start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(120, 40)}, answers...)...)
	c, err := m.a.config()
	if err != nil {
		t.Fatal(err)
	}
	if !c.Workload.OptimizerInBackward {
		t.Errorf("optimizer in backward answered on, the workload has it off: %+v", c.Workload.Switches)
	}
}

// TestGolden pins the screens at three terminal sizes: the first screen,
// a filled-in form, the offers table, an offer's detail, the export
// dialog, the catalog's warnings over the first screen; and the too-small
// screen.
func TestGolden(t *testing.T) {
	answered := bertAnswers()
	filled := answered[:len(answered)-4] // on the last page, not submitted
	screens := []struct {
		name string
		keys []tea.Msg
		opts Options
	}{
		{"first", nil, Options{}},
		{"filled", filled, Options{}},
		{"offers", answered, Options{}},
		{"detail", append(append([]tea.Msg{}, answered...), enter), Options{}},
		{"export", append(append([]tea.Msg{}, answered...), enter, ctrlE), Options{}},
		{"warnings", nil, Options{Warnings: []string{downloadsWarning}}}, // the catalog's, over the first screen
	}
	for _, sc := range screens {
		for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
			t.Run(fmt.Sprintf("%s/%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				t.Parallel()
				m := start(t, newTestApp(t, testCatalog(t), sc.opts), append([]tea.Msg{size(sz[0], sz[1])}, sc.keys...)...)
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
	for _, o := range modelOptions(cat, false, nil) {
		if o.Value == modelHF {
			t.Error("config.json offered without a reader")
		}
	}
	bert, _ := cat.Model("bert-large")
	read := func(path string, _ model.Task) (model.Architecture, model.Precision, []model.Message, error) {
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
	// The length follows the config.json model's default even though
	// the first workload on it, at the previous model's 4096 tokens, is
	// past BERT's 512 learned positions and refused (learnHF).
	def := model.Workload{Settings: model.Settings{Task: m.a.Task}, Model: *bert} // for the task asked: LoRA's batch is its recipe's
	def.Defaults()
	if m.a.Batch != fmt.Sprint(def.MicroBatch) || m.a.Length != fmt.Sprint(bert.DefaultSeqLen) {
		t.Errorf("batch %s × %s, want the config.json model's defaults %d × %d", m.a.Batch, m.a.Length, def.MicroBatch, bert.DefaultSeqLen)
	}
	// Reopened from a file, the file's batch stands.
	c0, _ := m.a.config()
	c0.Workload.MicroBatch = 3
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
	cfg, err := config.Decode(b)
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

// When no offer runs the workload the panel says so and what would make
// it fit: for 70B's full fine-tune on one GPU, the fit advice on the
// largest GPU (A100 80GB) shards over one node of 8 with the savers
// together, which recommend prices on the 8-GPU instance (before, every
// line was ✗ and the panel listed them unpriced).
func TestFitAdviceWhenNothingFits(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), tab, up, up, enter, runes("/"))
	m = drive(t, m, append(typed("llama 3.1 70b"), enter)...) // full fine-tune of 70B on one GPU
	text := screenText(m)
	for _, want := range []string{"no offer runs this workload", "What would make it fit", "ZeRO-3 over 8 GPUs", "p4de.24xlarge", "needs 1335.4 GiB per GPU"} {
		if !strings.Contains(text, want) {
			t.Errorf("panel lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "LoRA") { // advice keeps the job (issue 31): no adapters for a full fine-tune
		t.Errorf("panel advises another task:\n%s", text)
	}
	checkFits(t, m.View().Content, 120, 40)
}

// Trap: tables wider than the terminal; cut content without an ellipsis.
func TestTablesFitTheTerminal(t *testing.T) {
	for _, w := range []int{60, 72, 80, 100, 120, 200} {
		m := start(t, newTestApp(t, cjkCatalog(t), Options{}), append([]tea.Msg{size(w, 30)}, bertAnswers()...)...)
		view := m.View().Content
		checkFits(t, view, w, 30)
		text := ansi.Strip(view)
		if !strings.Contains(text, "GPUs") {
			t.Errorf("width %d: the table lost its GPUs column:\n%s", w, text)
		}
		if w < 120 && !strings.Contains(text, "…") {
			t.Errorf("width %d: long names are cut without an ellipsis:\n%s", w, text)
		}
		// Every row of the table is as wide as its header: columns line up.
		lines := strings.Split(text, "\n")
		header := lines[2]
		for _, l := range lines[4:] {
			if strings.TrimSpace(l) == "" || strings.Contains(l, "esc back") || strings.Contains(l, "answered") {
				continue
			}
			if ansi.StringWidth(strings.TrimRight(l, " ")) > ansi.StringWidth(strings.TrimRight(header, " "))+1 {
				t.Errorf("width %d: row wider than the header:\n%q\n%q", w, header, l)
			}
		}
	}
	// The panel's table too, on every screen size.
	for _, w := range []int{60, 80, 99, 100, 130} {
		m := start(t, newTestApp(t, cjkCatalog(t), Options{}), size(w, 30))
		checkFits(t, m.View().Content, w, 30)
	}
}

// Trap: emoji, CJK and ambiguous-width glyphs breaking borders and
// alignment, also in a CJK locale where go-runewidth counts ambiguous
// glyphs (…, ×, ·) as two cells unless told otherwise.
func TestWideText(t *testing.T) {
	old := runewidth.DefaultCondition
	t.Cleanup(func() { runewidth.DefaultCondition = old })
	for _, cjkLocale := range []bool{false, true} {
		runewidth.EastAsianWidth = cjkLocale
		runewidth.DefaultCondition = runewidth.NewCondition()
		measureLikeLipgloss() // what Run does first
		if runewidth.StringWidth("…×·") != 3 {
			t.Fatalf("ambiguous glyphs measure %d cells, want 3", runewidth.StringWidth("…×·"))
		}
		m := start(t, newTestApp(t, cjkCatalog(t), Options{}), append([]tea.Msg{size(90, 30)}, bertAnswers()...)...)
		// Walk the ranking until the selected offer is the wide-named one
		// (its rank depends on the estimate, not on this test).
		var view string
		for range 20 {
			m = drive(t, m, down)
			checkFits(t, m.View().Content, 90, 30)
			if !strings.Contains(ansi.Strip(m.View().Content), "ＧＰＵ") {
				continue
			}
			if d := drive(t, m, enter); strings.Contains(ansi.Strip(d.View().Content), "云算力") {
				m = d // the detail of a wide-named offer
				break
			}
		}
		view = m.View().Content
		checkFits(t, view, 90, 30)
		if !strings.Contains(ansi.Strip(view), "云算力") {
			t.Errorf("cjk locale %v: the detail of the wide offer is not shown:\n%s", cjkLocale, ansi.Strip(view))
		}
		for i, l := range strings.Split(view, "\n") {
			if ansi.StringWidth(l) != 90 && strings.Contains(l, "│") {
				t.Errorf("line %d is %d cells, want 90 (a border moved): %q", i, ansi.StringWidth(l), ansi.Strip(l))
			}
		}
	}
	if got := report.Truncate("ＧＰＵ服务器-🚀", 7); ansi.StringWidth(got) > 7 || !strings.HasSuffix(got, "…") {
		t.Errorf("Truncate = %q (%d cells), want at most 7 cells ending in …", got, ansi.StringWidth(got))
	}
}

// Trap: tiny terminals and resizes causing negative widths, panics or
// lost focus. Resizing to any size, on every screen, never panics, the
// view always fits, and the focus and the answers stay where they were.
func TestResizes(t *testing.T) {
	sizes := [][2]int{{0, 0}, {1, 1}, {20, 5}, {300, 100}, {200, 60}, {59, 19}, {60, 20}, {10, 100}, {300, 5}, {99, 30}, {100, 30}, {61, 21}, {80, 24}}
	half := msgs(enter, up, up, enter, runes("/"), typed("bert-large"), enter, enter, replace("32"), enter) // the length input focused
	for _, sc := range []struct {
		name string
		keys []tea.Msg
	}{
		{"wizard", half},
		{"offers", bertAnswers()},
		{"detail", append(bertAnswers(), enter)},
		{"export", append(bertAnswers(), enter, ctrlE)},
		{"help", []tea.Msg{runes("?")}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			m := start(t, newTestApp(t, testCatalog(t), Options{}), append([]tea.Msg{size(120, 40)}, sc.keys...)...)
			page, field, key := m.wiz.focusedPage(), m.wiz.form.GetFocusedField(), m.a.key()
			scr, dialogOpen := m.screen, m.dialog != nil
			for _, s := range sizes {
				m = drive(t, m, size(s[0], s[1]))
				view := m.View().Content
				if s[0] >= minWidth && s[1] >= minHeight {
					checkFits(t, view, s[0], s[1])
				} else if s[0] >= 30 && !strings.Contains(strings.Join(strings.Fields(ansi.Strip(view)), " "), "too small") {
					t.Errorf("%dx%d: no too-small message", s[0], s[1])
				}
			}
			if m.wiz.focusedPage() != page || m.wiz.form.GetFocusedField() != field || m.a.key() != key ||
				m.screen != scr || (m.dialog != nil) != dialogOpen {
				t.Errorf("resizing lost the focus or the answers")
			}
			if sc.name == "wizard" {
				m = drive(t, m, replace("512")...)
				if m.a.Length != "512" {
					t.Errorf("after resizes, typing went elsewhere: length = %q", m.a.Length)
				}
			}
		})
	}
}

// Trap: NO_COLOR not honoured. With NO_COLOR the screen is drawn without
// colour codes (Bubble Tea v2 writes the frame downsampled to the profile
// given), and what colour marked (the chosen button, the selected row)
// still shows: [on], ›, reverse video.
func TestNoColor(t *testing.T) {
	profile := screenProfile(&bytes.Buffer{}, func(k string) string {
		switch k {
		case "NO_COLOR":
			return "1"
		case "CLICOLOR_FORCE": // as if on a colour terminal
			return "1"
		case "TERM":
			return "xterm-256color"
		}
		return ""
	})
	if profile != colorprofile.ASCII {
		t.Fatalf("NO_COLOR: colour profile %v, want ASCII", profile)
	}
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), enter, enter, enter, enter, enter, enter, enter)
	var out bytes.Buffer
	w := &colorprofile.Writer{Forward: &out, Profile: profile}
	io.WriteString(w, m.View().Content)
	view := out.String()
	if strings.Contains(view, "\x1b[38") || strings.Contains(view, "\x1b[48") || strings.Contains(view, "\x1b[3") && regexp.MustCompile(`\x1b\[[0-9;]*3[0-9]m`).MatchString(view) {
		t.Errorf("the view has colour codes without colour support")
	}
	if !strings.Contains(ansi.Strip(view), "[ on ]") {
		t.Errorf("the chosen button is not marked without colour:\n%s", ansi.Strip(view))
	}
}

// Light and dark backgrounds get different colours (lipgloss.LightDark),
// decided once per background, not per frame; a 16-colour terminal gets
// no true colour.
func TestAdaptiveColours(t *testing.T) {
	render := func(dark bool) string {
		st := report.NewStyles(&report.Renderer{Profile: colorprofile.TrueColor, Dark: dark})
		return st.Title.Render("x") + st.Muted.Render("x")
	}
	if render(true) == render(false) {
		t.Error("light and dark backgrounds render the same colours")
	}
	r := &report.Renderer{Profile: colorprofile.ANSI, Dark: true} // a 16-colour terminal
	st := report.NewStyles(r)
	var out bytes.Buffer
	io.WriteString(r.Writer(&out), st.Title.Render("x"))
	if s := out.String(); !strings.Contains(s, "x") || strings.Contains(s, "38;2") {
		t.Errorf("16 colours: %q uses true colour", s)
	}
}

// Results of older answers arriving late are dropped.
func TestStaleResultsDropped(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40), enter, enter)
	m.async = true
	m = drive(t, m)              // no-op
	next, cmd1 := m.Update(down) // model: next in the list
	m = next.(app)
	next, cmd2 := m.Update(down)
	m = next.(app)
	r2, r1 := run(cmd2), run(cmd1)
	want := m.a.Model
	m = drive(t, m, r2, r1)
	if m.res.workload.Model.Key != want {
		t.Errorf("panel shows %s, want the latest answer %s", m.res.workload.Model.Key, want)
	}
}
