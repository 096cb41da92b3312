package tui

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// vtScreen is what a terminal of the test's size shows: Bubble Tea v2
// redraws only the cells that changed (cursor moves between them), so
// the program's output is played into a terminal emulator and the
// screen, not the byte stream, is searched.
type vtScreen struct {
	tm *teatest.TestModel
	em *vt.Emulator
}

func newScreen(tm *teatest.TestModel, w, h int) *vtScreen {
	em := vt.NewEmulator(w, h)
	go io.Copy(io.Discard, em) // the emulator's answers to queries (background colour): not read by anyone
	return &vtScreen{tm: tm, em: em}
}

// await waits until the screen shows token. The bound is generous: it
// only ends a hung run, and a loaded 2-core machine (a full go test ./...
// beside other builds) has taken over 10 s for an export's round trip.
func await(t *testing.T, sc *vtScreen, token string) {
	t.Helper()
	buf := make([]byte, 32<<10)
	const wait = 30 * time.Second
	deadline := time.Now().Add(wait)
	for {
		for {
			n, _ := sc.tm.Output().Read(buf)
			if n == 0 {
				break
			}
			// A terminal's line discipline (ONLCR) turns \n into \r\n; the
			// renderer, writing to a pipe here, counts on it.
			sc.em.Write(bytes.ReplaceAll(buf[:n], []byte("\n"), []byte("\r\n")))
		}
		text := sc.em.String()
		if strings.Contains(text, token) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the screen did not show %q in %v; it shows:\n%s", token, wait, text)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func keys(tm *teatest.TestModel, ks ...tea.Msg) {
	for _, k := range ks {
		tm.Send(k)
	}
}

// TestEndToEnd answers the questions for BERT-Large fine-tuning on one
// GPU as a person would, opens the top offer, exports it, and reloads the
// file into equal answers.
func TestEndToEnd(t *testing.T) {
	cat := testCatalog(t)
	path := filepath.Join(t.TempDir(), "bert.toml")
	tm := teatest.NewTestModel(t, newTestApp(t, cat, Options{}), teatest.WithInitialTermSize(120, 40))
	sc := newScreen(tm, 120, 40)
	await(t, sc, "page 1 of 13")
	keys(tm, enter)
	await(t, sc, "┃ Task")
	keys(tm, up, up, enter) // full fine-tune
	await(t, sc, "page 2 of 11: Model")
	keys(tm, runes("/"))
	tm.Type("bert-large")
	keys(tm, enter)
	await(t, sc, "page 3 of 11: Precision")
	keys(tm, enter)
	await(t, sc, "page 4 of 11")
	keys(tm, clearLine)
	tm.Type("32")
	keys(tm, enter)
	await(t, sc, "┃ Sequence length")
	keys(tm, clearLine)
	tm.Type("384")
	keys(tm, enter)
	await(t, sc, "page 5 of 11: Optimizer")
	keys(tm, enter)
	await(t, sc, "page 6 of 11")
	keys(tm, enter)
	await(t, sc, "┃ Flash attention")
	keys(tm, enter)
	await(t, sc, "┃ Optimizer in backward")
	keys(tm, enter)
	await(t, sc, "page 7 of 11: Recipe and loss")
	keys(tm, enter) // recipe auto
	await(t, sc, "┃ Loss")
	keys(tm, enter) // loss hf-fp32
	await(t, sc, "page 8 of 11: Dataset")
	keys(tm, clearLine)
	tm.Type("88k")
	keys(tm, enter)
	await(t, sc, "┃ Counted in")
	keys(tm, left, enter) // tokens → samples (an LLM has no images)
	await(t, sc, "┃ Epochs")
	keys(tm, clearLine)
	tm.Type("2")
	keys(tm, enter)
	await(t, sc, "page 9 of 11: Distribution")
	keys(tm, enter) // single GPU
	await(t, sc, "page 10 of 11: Where")
	keys(tm, enter)
	await(t, sc, "┃ Regions")
	keys(tm, enter)
	await(t, sc, "page 11 of 11: Price")
	keys(tm, enter)
	await(t, sc, "┃ Monthly budget")
	keys(tm, enter)
	await(t, sc, "┃ Job budget")
	keys(tm, enter)
	await(t, sc, "┃ Hours per month")
	keys(tm, enter)
	await(t, sc, "┃ Deadline")
	keys(tm, enter)
	// 13 offers, the panel's "Offers: 13 fit": lambda's A100 in two regions
	// at one price is one row (+1), so 12 rows (new-user trial: the view
	// said 12 where the panel said 13).
	await(t, sc, "All offers: 13")
	await(t, sc, "12 rows, +1 in other regions (r)")
	keys(tm, enter) // the top offer
	await(t, sc, "Why it fits")
	keys(tm, ctrlE)
	await(t, sc, "┃ Format")
	keys(tm, enter) // gpuplan TOML
	await(t, sc, "┃ Export to")
	keys(tm, clearLine)
	tm.Type(path)
	keys(tm, enter)
	// The file is the export's effect, and the footer says so. On a
	// loaded machine a cursor blink reaching the answered dialog before
	// the write came back wrote again, and that write's "file exists"
	// cleared the footer (TestExportedStays): the file was there, the
	// footer not.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			break
		}
		if time.Now().After(deadline) {
			await(t, sc, "exported to") // fails with the screen as it is
		}
	}
	await(t, sc, "exported to")
	_ = tm.Quit()
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(app)

	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Decode(b)
	if err != nil {
		t.Fatalf("the exported file does not load: %v\n%s", err, b)
	}
	if s := cfg.Selection; s == nil || s.Provider != "lambda" || s.InstanceType != "gpu_1x_a100_sxm4" || s.CatalogAsOf != "2026-11-30" {
		t.Errorf("selection = %+v, want the top offer, lambda gpu_1x_a100_sxm4 (the cheapest job: $0.60 on the A100 40GB)", s)
	}
	w := cfg.Workload
	if w.Model != "bert-large" || w.Task != model.TaskFinetune || w.MicroBatch != 32 || w.SeqLen != 384 ||
		w.DatasetSamples != 88000 || w.Epochs != 2 || w.GPUs != 1 {
		t.Errorf("exported workload = %+v", w)
	}
	want, err := final.a.config()
	if err != nil {
		t.Fatal(err)
	}
	for name, a := range map[string]*answers{
		"answersFromConfig":     answersFromConfig(cat, &cfg),
		"gpuplan --config FILE": newTestApp(t, cat, Options{Config: &cfg, ConfigPath: path}).a,
	} {
		got, err := a.config()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: reloaded answers differ:\n got %+v\nwant %+v", name, got, want)
		}
		if a.Model != final.a.Model || a.Batch != final.a.Batch || a.Length != final.a.Length || a.Dataset != final.a.Dataset ||
			a.DatasetUnit != final.a.DatasetUnit || a.Epochs != final.a.Epochs || a.Task != final.a.Task || a.Distribution != final.a.Distribution {
			t.Errorf("%s: reloaded answers %+v, want %+v", name, *a, *final.a)
		}
	}
	if !strings.Contains(string(b), "# ") {
		t.Error("the file has no comments for the reader")
	}
}
