package probes_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data/probes"
	"github.com/gpuplan/gpuplan/data/safeio"
	"github.com/gpuplan/gpuplan/model/probe"
)

const fixture = "../../model/probe/testdata/qlora-a10g.json"

func TestDir(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/xdg")
	if d, err := probes.Dir(); err != nil || d != "/xdg/gpuplan/probes" {
		t.Errorf("Dir = %q, %v", d, err)
	}
	t.Setenv("XDG_DATA_HOME", "relative") // the spec ignores a relative path
	t.Setenv("HOME", "/home/u")
	if d, err := probes.Dir(); err != nil || d != "/home/u/.local/share/gpuplan/probes" {
		t.Errorf("Dir = %q, %v", d, err)
	}
}

// TestKeepLoad: a kept run loads back as the same cases, keeping it twice
// is refused without touching the file, and nothing but the kept file is
// left in the directory.
func TestKeepLoad(t *testing.T) {
	r, err := probes.ReadResult(fixture)
	if err != nil {
		t.Fatal(err)
	}
	s, err := probe.Cases(r)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "probes")
	path, err := probes.Keep(dir, s, r)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	if _, err := probes.Keep(dir, s, r); !errors.Is(err, probes.ErrKept) {
		t.Errorf("keeping twice: err = %v, want ErrKept", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("keeping twice changed the file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left %d files in the directory", len(entries))
	}
	got, warnings := probes.Load(dir)
	if len(warnings) > 0 || len(got.Case) != 3 || got.Case[1].Quote != string(r.Line) || got.Case[0].ID != s.Case[0].ID {
		t.Errorf("Load = %+v, %v", got, warnings)
	}
	if s, w := probes.Load(filepath.Join(dir, "missing")); len(s.Case) != 0 || len(w) != 0 {
		t.Errorf("a missing directory: %+v %v", s, w)
	}
}

// TestLoadHostile: files that are not kept runs are left out, each with a
// warning naming it, and the good ones still load.
func TestLoadHostile(t *testing.T) {
	r, err := probes.ReadResult(fixture)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := probe.Cases(r)
	dir := t.TempDir()
	if _, err := probes.Keep(dir, s, r); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a-typo.toml", "[[case]]\nid = \"x\"\nkind = \"memory\"\nquantity = \"allocated\"\nmodle = \"y\"\n")
	write("b-nested.toml", "a = "+strings.Repeat("[", 50)+strings.Repeat("]", 50)+"\n")
	write("c-huge.toml", "x = \""+strings.Repeat("a", int(probes.Kept.MaxBytes))+"\"\n")
	write("d-control.toml", "[[case]]\nid = \"x\\u001b[2J\"\nkind = \"memory\"\nquantity = \"allocated\"\nmodel = \"m\"\ngpu = \"g\"\ntask = \"qlora\"\nprecision = \"bf16\"\nbatch = 1\npublished = 1.0\nunit = \"GB\"\ntolerance = 0.15\nsource = \"s\"\nquote = \"q\"\n")
	write("e-nan.toml", "[[case]]\nid = \"y\"\nkind = \"memory\"\nquantity = \"allocated\"\nmodel = \"m\"\ngpu = \"g\"\ntask = \"qlora\"\nprecision = \"bf16\"\nbatch = 1\npublished = nan\nunit = \"GB\"\ntolerance = 0.15\nsource = \"s\"\nquote = \"q\"\n")
	if err := os.Mkdir(filepath.Join(dir, "f-dir.toml"), 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := mkfifo(filepath.Join(dir, "g-fifo.toml")) == nil
	got, warnings := probes.Load(dir)
	if len(got.Case) != 3 {
		t.Errorf("the good file's cases did not load: %d", len(got.Case))
	}
	for _, want := range []string{"a-typo.toml: unknown keys case.modle", "b-nested.toml: line 1: tables, arrays and dotted keys nest",
		"c-huge.toml: file too large", "d-control.toml: case x\\x1b[2J: id: control character U+001B", "e-nan.toml: case y: published: NaN is out of range",
		"f-dir.toml: not a regular file: is a directory", "g-fifo.toml: not a regular file: is a FIFO"} {
		if !fifo && strings.HasPrefix(want, "g-fifo") {
			continue
		}
		found := false
		for _, w := range warnings {
			found = found || strings.Contains(w.String(), want)
		}
		if !found {
			t.Errorf("no warning %q in %q", want, warnings)
		}
	}
	for _, w := range warnings {
		if strings.ContainsAny(w.String(), "\x1b\n") {
			t.Errorf("a warning has a control character: %q", w)
		}
	}
}

// TestReadResultBounded: only regular files, and at most Result.MaxBytes.
func TestReadResultBounded(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, probes.Result.MaxBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := probes.ReadResult(big); !errors.Is(err, safeio.ErrTooLarge) {
		t.Errorf("big: %v", err)
	}
	if _, err := probes.ReadResult(dir); !errors.Is(err, safeio.ErrNotRegular) {
		t.Errorf("directory: %v", err)
	}
	if _, err := probes.ReadResult("/dev/zero"); !errors.Is(err, safeio.ErrNotRegular) {
		t.Errorf("/dev/zero: %v", err)
	}
}
