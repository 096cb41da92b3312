package tui

import (
	"os"
	"path/filepath"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpuplan/gpuplan/data/hf"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// walk49g item 1: a config.json's torch_dtype sets the precision the
// configurator estimates, as `gpuplan recommend --hf-config` takes it
// (config.WorkloadAnswers.Workload), until the user picks one.
func TestHFConfigDTypeSetsPrecision(t *testing.T) {
	path, err := filepath.Abs(filepath.Join("..", "cli", "testdata", "llama-3.1-8b-awq"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Skip(err)
	}
	cat := testCatalog(t)
	read := hf.Readers()
	// What the CLI resolves: the request without a precision.
	cli := config.WorkloadAnswers{HFConfig: path}
	cli.Task = model.TaskQLoRA
	want, _, err := cli.Resolve(cat, read)
	if err != nil {
		t.Fatal(err)
	}
	if want.Precision != model.AMPFP16 {
		t.Fatalf("the CLI's resolution gives %s, want amp-fp16 from torch_dtype float16", want.Precision)
	}
	m := pickModel(t, newTestApp(t, cat, Options{ReadHFConfig: read.HFConfig}), "hugging")
	tm, _ := m.Update(tea.PasteMsg{Content: path})
	m = drive(t, tm, enter)
	if m.res == nil || m.res.err != nil {
		t.Fatalf("no estimate: %+v", m.res)
	}
	if got := m.res.workload.Precision; got != want.Precision {
		t.Errorf("panel estimates %s, the CLI %s", got, want.Precision)
	}
	if m.a.TrainPrecision != want.Precision {
		t.Errorf("Precision page shows %s, want %s", m.a.TrainPrecision, want.Precision)
	}
	// A precision the user picks wins over the checkpoint's.
	m.a.TrainPrecision = model.AMPBF16
	c, err := m.a.config()
	if err != nil {
		t.Fatal(err)
	}
	if c.Workload.Precision != model.AMPBF16 {
		t.Errorf("a picked amp-bf16 is sent as %q", c.Workload.Precision)
	}
}
