package tui

import (
	"os"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
	"github.com/gpuplan/gpuplan/model/probe"
	"github.com/gpuplan/gpuplan/ui/report"
)

// keptOn is the hand-written QLoRA probe run (its figures are made up) as
// if it had run on gpu: its cases, prepared against cat.
func keptOn(t *testing.T, cat *model.Catalog, gpu string) []probe.Kept {
	t.Helper()
	b, err := os.ReadFile("../../model/probe/testdata/qlora-a10g.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := probe.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	s, err := probe.Cases(r)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Case {
		s.Case[i].Settings.GPU = gpu
	}
	kept, errs := probe.Prepare(s, cat)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return kept
}

// TestPanelKeptProbe: the configurator's panel shows the estimate of its
// best offer corrected by a kept run on the same GPU, family and recipe,
// with how many runs back it; a panel of another family shows none.
func TestPanelKeptProbe(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	cat, _, err := data.LoadWith(nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Decode([]byte("schema_version = 1\n[workload]\nmodel = \"llama-3.1-8b\"\ntask = \"qlora\"\nbatch_size = 2\nseq_len = 1024\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := start(t, newTestApp(t, cat, Options{Config: &cfg}), size(160, 50))
	best := m.panel.res.best()
	if best == nil {
		t.Fatal("no offer")
	}
	if strings.Contains(screenText(m), "Kept probes:") {
		t.Fatal("a correction without kept probes")
	}
	kept := keptOn(t, cat, best.GPU.Key)
	m = start(t, newTestApp(t, cat, Options{Config: &cfg, Probes: kept}), size(160, 50))
	text := screenText(m)
	c := probe.Correct(best.Estimate, kept)
	if !c.OK() || !strings.Contains(text, "Kept probes: 1 kept probe run on "+best.GPU.Name+" (decoder family, autocast recipe):") || !strings.Contains(text, report.GiB(c.Memory)+" per GPU corrected") {
		t.Errorf("the panel shows no correction:\n%s", text)
	}
	other, err := config.Decode([]byte("schema_version = 1\n[workload]\nmodel = \"resnet50\"\nbatch_size = 64\n"))
	if err != nil {
		t.Fatal(err)
	}
	m = start(t, newTestApp(t, cat, Options{Config: &other, Probes: kept}), size(160, 50))
	if text := screenText(m); strings.Contains(text, "Kept probes:") {
		t.Errorf("a CNN's panel shows the decoder run's correction:\n%s", text)
	}
}
