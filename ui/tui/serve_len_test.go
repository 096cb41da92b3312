package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/config"
)

// TestServingMaxModelLenIsTheQuestion: a file's [serve] max_model_len is
// the "Context length (tokens)" question's answer. The question showed
// the model's default while the plan served the file's length, and an
// edit to it changed nothing: the file's key, kept as not asked, won
// (a helper's walk: 8192 in the file, 2048 typed, planned at 8192).
func TestServingMaxModelLenIsTheQuestion(t *testing.T) {
	cat := ropeCatalog(t)
	c, err := config.Decode([]byte(ropeFile)) // max_model_len = 8192, yarn:2
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.toml")
	m := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: path}), size(120, 40))
	if m.a.Length != "8192" {
		t.Errorf("the context length question shows %q, want the file's 8192", m.a.Length)
	}
	if m.res == nil || m.res.err != nil || len(m.res.serve) == 0 || m.res.serve[0].Serving.MaxModelLen != 8192 {
		t.Fatalf("no plan at the file's 8192:\n%s", screenText(m))
	}
	m.wiz.form.goTo(pageTitled(t, m, "Batch and length"))
	m.layout()
	m = drive(t, m, tab) // the concurrent sequences, then the context length
	m = drive(t, m, replace("2048")...)
	if m.a.Length != "2048" {
		t.Fatalf("typed into the context length: %q; the page:\n%s", m.a.Length, screenText(m))
	}
	if m.res == nil || m.res.err != nil || len(m.res.serve) == 0 {
		t.Fatalf("no plan at 2048: %v\n%s", m.res.err, screenText(m))
	}
	if got := m.res.serve[0].Serving.MaxModelLen; got != 2048 {
		t.Errorf("the plan serves max_model_len %d after 2048 was typed, want 2048", got)
	}
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no file written (%v):\n%s", err, screenText(m))
	}
	back, err := config.Decode(b)
	if err != nil {
		t.Fatalf("the saved file does not read back: %v\n%s", err, b)
	}
	if got := back.Workload.Serve.MaxModelLen; got != 2048 {
		t.Errorf("the saved file has [serve] max_model_len %d, want the edited 2048:\n%s", got, b)
	}
	if strings.Contains(string(b), "8192") {
		t.Errorf("the saved file keeps the stale 8192:\n%s", b)
	}
}

// TestServingNoMaxModelLen: without max_model_len the question shows the
// model's default and the plan serves it, as before; a save writes no
// [serve] max_model_len the file did not give.
func TestServingNoMaxModelLen(t *testing.T) {
	cat := ropeCatalog(t)
	c, err := config.Decode([]byte("schema_version = 1\n[workload]\ntask = \"inference\"\nmodel = \"llama-2-7b\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.toml")
	m := start(t, newTestApp(t, cat, Options{Config: &c, ConfigPath: path}), size(120, 40))
	if m.a.Length != "4096" {
		t.Errorf("the context length question shows %q, want Llama 2 7B's default 4096", m.a.Length)
	}
	if m.res == nil || m.res.err != nil || len(m.res.serve) == 0 || m.res.serve[0].Serving.MaxModelLen != 4096 {
		t.Fatalf("no plan at the default 4096:\n%s", screenText(m))
	}
	m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no file written (%v):\n%s", err, screenText(m))
	}
	if strings.Contains(string(b), "max_model_len") {
		t.Errorf("the saved file has a max_model_len the file did not give:\n%s", b)
	}
}
