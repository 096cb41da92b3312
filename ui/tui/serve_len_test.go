package tui

import (
	"os"
	"path/filepath"
	"regexp"
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

// TestServingFileLoadAndContextAreTheQuestions: the other keys a file
// may give what the Batch and length page asks when serving — [workload]
// context_len (the context length) and sequences, and [serve]
// concurrency (the concurrent sequences) — are the questions' answers
// too: shown, an edit plans it, a save writes it back to the file's key.
// Kept aside, each won over its question as max_model_len did.
func TestServingFileLoadAndContextAreTheQuestions(t *testing.T) {
	for _, tt := range []struct {
		name, workload, serve string // the file's keys
		was, typed            string
		key                   string // the key the save writes the typed answer to
	}{
		{name: "context_len", workload: "context_len = 2048\n", was: "2048", typed: "1024", key: "context_len = 1024"},
		{name: "sequences", workload: "sequences = 32\n", was: "32", typed: "3", key: "sequences = 3"},
		{name: "serve concurrency", serve: "concurrency = 32\n", was: "32", typed: "3", key: "concurrency = 3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file := "schema_version = 1\n[workload]\ntask = \"inference\"\nmodel = \"llama-2-7b\"\n" + tt.workload
			if tt.serve != "" {
				file += "[serve]\n" + tt.serve
			}
			c, err := config.Decode([]byte(file))
			if err != nil {
				t.Fatalf("%v\n%s", err, file)
			}
			path := filepath.Join(t.TempDir(), "t.toml")
			m := start(t, newTestApp(t, ropeCatalog(t), Options{Config: &c, ConfigPath: path}), size(120, 40))
			length := strings.Contains(tt.key, "context_len")
			answer := func() string {
				if length {
					return m.a.Length
				}
				return m.a.Batch
			}
			planned := func() int {
				if m.res == nil || m.res.err != nil || len(m.res.serve) == 0 {
					t.Fatalf("no plan:\n%s", screenText(m))
				}
				if s := m.res.serve[0].Serving; length {
					return s.MaxModelLen
				} else {
					return s.Concurrency
				}
			}
			if answer() != tt.was || fmtInt(planned()) != tt.was {
				t.Errorf("the question shows %q, the plan %d; want the file's %s for both", answer(), planned(), tt.was)
			}
			m.wiz.form.goTo(pageTitled(t, m, "Batch and length"))
			m.layout()
			if length {
				m = drive(t, m, tab)
			}
			m = drive(t, m, replace(tt.typed)...)
			if answer() != tt.typed || fmtInt(planned()) != tt.typed {
				t.Errorf("typed %s: the question %q, the plan %d", tt.typed, answer(), planned())
			}
			m = drive(t, m, msgs(ctrlE, enter, replace(path), enter)...)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("no file written (%v):\n%s", err, screenText(m))
			}
			if !regexp.MustCompile(`(?m)^` + tt.key + `\b`).Match(b) {
				t.Errorf("the saved file lacks %q:\n%s", tt.key, b)
			}
		})
	}
}
