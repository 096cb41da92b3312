package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/gpuplan/gpuplan/model"
)

// await waits until the screen redraws something containing token.
func await(t *testing.T, tm *teatest.TestModel, token string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(token)) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
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
	await(t, tm, "page 1 of 10")
	keys(tm, enter)
	await(t, tm, "┃ Task")
	keys(tm, up, up, enter) // full fine-tune
	await(t, tm, "page 2 of 10: Model")
	keys(tm, runes("/"))
	tm.Type("bert-large")
	keys(tm, enter)
	await(t, tm, "page 3 of 10: Precision")
	keys(tm, enter)
	await(t, tm, "page 4 of 10")
	keys(tm, clearLine)
	tm.Type("32")
	keys(tm, enter)
	await(t, tm, "┃ Sequence length")
	keys(tm, clearLine)
	tm.Type("384")
	keys(tm, enter)
	await(t, tm, "page 5 of 10: Optimizer")
	keys(tm, enter)
	await(t, tm, "page 6 of 10")
	keys(tm, enter)
	await(t, tm, "┃ Flash attention")
	keys(tm, enter)
	await(t, tm, "page 7 of 10: Dataset")
	keys(tm, clearLine)
	tm.Type("88k")
	keys(tm, enter)
	await(t, tm, "┃ Counted in")
	keys(tm, left, enter) // tokens → samples (an LLM has no images)
	await(t, tm, "┃ Epochs")
	keys(tm, clearLine)
	tm.Type("2")
	keys(tm, enter)
	await(t, tm, "page 8 of 10: Distribution")
	keys(tm, enter) // single GPU
	await(t, tm, "page 9 of 10: Where")
	keys(tm, enter)
	await(t, tm, "┃ Regions")
	keys(tm, enter)
	await(t, tm, "page 10 of 10: Price")
	keys(tm, enter)
	await(t, tm, "┃ Monthly budget")
	keys(tm, enter)
	await(t, tm, "┃ Hours per month")
	keys(tm, enter)
	await(t, tm, "┃ Deadline")
	keys(tm, enter)
	await(t, tm, "All offers: 13")
	keys(tm, enter) // the top offer
	await(t, tm, "Why it fits")
	keys(tm, ctrlE)
	await(t, tm, "┃ Format")
	keys(tm, enter) // gpuplan TOML
	await(t, tm, "┃ Export to")
	keys(tm, clearLine)
	tm.Type(path)
	keys(tm, enter)
	// The write runs in a command: poll for the file (the "exported to"
	// status may be coalesced out of the frames under load; the status
	// itself is TestExportedStaysSaid's).
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			break
		}
	}
	_ = tm.Quit()
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(app)

	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := model.DecodeConfig(b)
	if err != nil {
		t.Fatalf("the exported file does not load: %v\n%s", err, b)
	}
	if s := cfg.Selection; s == nil || s.Provider != "lambda" || s.InstanceType != "gpu_1x_a100_sxm4" || s.CatalogAsOf != "2026-11-30" {
		t.Errorf("selection = %+v, want the top offer, lambda gpu_1x_a100_sxm4", s)
	}
	w := cfg.Workload
	if w.Model != "bert-large" || w.Task != model.TaskFinetune || w.BatchSize != 32 || w.SeqLen != 384 ||
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
