package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// A custom model's parameter count wins over the shape; the shape sizes
// activations. Left empty, the shape counts.
func TestCustomParamsWin(t *testing.T) {
	m := pickModel(t, start(t, newTestApp(t, testCatalog(t), Options{}), size(120, 40)), "custom")
	if m.a.Params != "" || !m.res.ok() {
		t.Fatalf("custom starts with params %q (want empty: from the shape), result %v", m.a.Params, m.res.err)
	}
	fromShape := m.res.est.Params
	m = drive(t, m, typed("70B")...)
	if !m.res.ok() || m.res.est.Params != 70e9 {
		t.Fatalf("params 70B: estimate has %.4g parameters (shape alone: %.4g), err %v", m.res.est.Params, fromShape, m.res.err)
	}
	if !strings.Contains(screenText(m), "70B parameters") {
		t.Errorf("the panel does not show 70B:\n%s", screenText(m))
	}
}

// A leading ~/ in a path is the home directory.
func TestTildePaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	a := defaultAnswers(testCatalog(t))
	a.Model, a.HFPath = modelHF, " ~/ckpt/config.json"
	c, err := a.config()
	if err != nil || c.Workload.HFConfig != filepath.Join(home, "ckpt/config.json") {
		t.Errorf("config.json ~/ckpt/config.json = %q, %v", c.Workload.HFConfig, err)
	}
	for in, want := range map[string]string{"~": home, "~/a.toml": filepath.Join(home, "a.toml"), "~x/a": "~x/a", "a/~/b": "a/~/b"} {
		if got := expandHome(in); got != want {
			t.Errorf("expandHome(%q) = %q, want %q", in, got, want)
		}
	}
}

// With auto GPUs and the strategy answer auto the matcher may shard (FSDP) where DDP does
// not fit: the panel says so, and the strategy question explains it.
func TestAutoGPUsStrategyAgrees(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(140, 40), tab, up, up, enter, runes("/"))
	m = drive(t, m, append(typed("phi-3"), enter)...) // full fine-tune of 3.8B: DDP holds 61 GB of states per GPU
	m = drive(t, m, msgs(enter, replace("1"), enter, replace("512"))...)
	m = toPage(t, m, "Distribution")
	m = drive(t, m, down, enter) // one node, several GPUs: auto
	best := m.res.best()
	if best == nil {
		t.Fatalf("no offer:\n%s", screenText(m))
	}
	text := screenText(m)
	if said := strings.Contains(text, "(DDP did not fit)"); said != (best.GPUs > 1 && best.Strategy != model.DDP) {
		t.Errorf("best offer: %d GPUs %s, answer DDP; the panel says DDP did not fit: %v\n%s", best.GPUs, best.Strategy, said, text)
	}
	m.a.Providers, m.a.Batch = []string{"aws"}, "16" // DDP on 8 × H100: 61 GB of states plus activations do not fit
	m = drive(t, m, down, up)
	if best = m.res.best(); best == nil || best.GPUs == 1 || best.Strategy != model.FSDP || !strings.Contains(screenText(m), "(DDP did not fit)") {
		t.Errorf("aws: best offer %+v; the panel should say DDP did not fit:\n%s", best, screenText(m))
	}
	if !strings.Contains(text, "auto GPUs: auto tries FSDP where DDP does not fit") {
		t.Errorf("the strategy question does not explain auto GPUs:\n%s", text)
	}
}

// With a fixed GPU count and the strategy answer auto the matcher shards
// (FSDP) where DDP does not fit, as recommend --gpus N without
// --strategy: the panel says DDP did not fit, and the strategy question
// says auto tries FSDP on these GPUs.
func TestFixedGPUsStrategyAgrees(t *testing.T) {
	m := start(t, newTestApp(t, testCatalog(t), Options{}), size(140, 40), tab, up, up, enter, runes("/"))
	m = drive(t, m, append(typed("phi-3"), enter)...) // full fine-tune of 3.8B: DDP holds 61 GB of states per GPU
	m = drive(t, m, msgs(enter, replace("1"), enter, replace("512"))...)
	m = toPage(t, m, "Distribution")
	m = drive(t, m, down, enter)                     // one node, several GPUs
	m.a.Providers, m.a.Batch = []string{"aws"}, "16" // DDP on 8 × H100: 61 GB of states plus activations do not fit
	m = drive(t, m, replace("8")...)
	best := m.res.best()
	if best == nil || best.GPUs != 8 || best.Strategy != model.FSDP || !strings.Contains(screenText(m), "(DDP did not fit)") {
		t.Errorf("aws, 8 GPUs: best offer %+v; want FSDP over 8 and the panel saying DDP did not fit:\n%s", best, screenText(m))
	}
	if text := screenText(m); !strings.Contains(text, "auto tries FSDP where DDP does not fit on these GPUs") {
		t.Errorf("the strategy question does not explain a fixed count:\n%s", text)
	}
}

// TestFixedGPUsBorderlineStrategy (estlayout): with 4 GPUs and the
// strategy answer auto, Llama 3.1 8B QLoRA at 1 × 4096 on V100 16GB
// hosts runs FSDP at 11.29 GiB per GPU, as recommend --gpus 4 and
// estimate --gpu v100-16gb --gpus 4 take it: DDP's 14.47 GiB is within
// the 14.99 GiB usable but its 90% range reaches 18.16 (borderline), and
// FSDP's fits across its range. The panel says DDP was borderline, not
// that it did not fit (which it said before).
func TestFixedGPUsBorderlineStrategy(t *testing.T) {
	m := start(t, newTestApp(t, embeddedCatalog(t), Options{}), size(140, 40))
	m.a.Task, m.a.Model = model.TaskQLoRA, "llama-3.1-8b"
	m.a.Length, m.a.Batch = "4096", "1"
	m.a.Distribution, m.a.GPUs = distNode, "4"
	m.a.Providers, m.a.GPUKeys = []string{"primeintellect"}, []string{"v100-16gb"}
	m.recompute()
	best := m.res.best()
	text := screenText(m)
	if best == nil || best.GPUs != 4 || best.Strategy != model.FSDP || fmt.Sprintf("%.2f", best.NeedBytes/model.GiB) != "11.29" {
		t.Fatalf("best offer %+v; want FSDP over 4 V100 at 11.29 GiB:\n%s", best, text)
	}
	if !strings.Contains(text, "(DDP was borderline)") || strings.Contains(text, "(DDP did not fit)") {
		t.Errorf("the panel should say DDP was borderline:\n%s", text)
	}
}
