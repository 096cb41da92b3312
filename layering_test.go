package main

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// modelImports are the packages of this module each package under model/
// may import (its non-test files), the one-way layering model/doc.go
// states: model is the core and imports none of them; show (text safe to
// print, prices as tables write them) imports nothing and is everyone's;
// serve and market build on model alone; the configuration file on model
// and serve; fit checks, tips and savings (advice) on model alone; plans
// on model, advice, the configuration file and serve (a service phase is
// priced by the serving ranking, as recommend ranks it); launch files on model,
// config and serve, with the software stack (launch/stack), the
// providers' instance facts (launch/cloud) and the DeepSpeed config
// (launch/deepspeed) below them and the probe script
// (launch/probescript) above. A package missing here fails the test, so
// a new one states its place.
var modelImports = map[string][]string{
	"model":                    {},
	"model/show":               {},
	"model/serve":              {"model", "model/show"},
	"model/market":             {"model", "model/show"},
	"model/config":             {"model", "model/serve", "model/show"},
	"model/advice":             {"model"},
	"model/plan":               {"model", "model/advice", "model/config", "model/serve", "model/show"},
	"model/decide":             {"model", "model/show"},
	"model/probe":              {"model", "model/serve", "model/show"},
	"model/launch":             {"model", "model/config", "model/decide", "model/serve", "model/show", "model/launch/stack", "model/launch/cloud", "model/launch/deepspeed"},
	"model/launch/stack":       {"model"},
	"model/launch/cloud":       {"model"},
	"model/launch/deepspeed":   {"model"},
	"model/launch/probescript": {"model", "model/launch", "model/probe", "model/show"},
	"model/internal/modeltest": {"model"},
	"model/market/markettest":  {"model"},
}

// modelNoIO are the standard-library packages model/ code does without:
// the domain has no file or network access (model/doc.go); its tests may
// read their testdata.
var modelNoIO = []string{"os", "net"}

// TestModelLayering reads the imports of every package under model/ with
// go/build and fails on one the layering does not allow.
func TestModelLayering(t *testing.T) {
	const module = "github.com/gpuplan/gpuplan/"
	seen := map[string]bool{}
	err := filepath.WalkDir("model", func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(dir, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		}
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(dir)
		seen[pkg] = true
		allowed, ok := modelImports[pkg]
		if !ok {
			t.Errorf("%s: not in modelImports; add it with the module packages it may import", pkg)
		}
		for _, imp := range p.Imports {
			if rel, in := strings.CutPrefix(imp, module); in && ok && !slices.Contains(allowed, rel) {
				t.Errorf("%s imports %s: not allowed (allowed: %s; see model/doc.go)", pkg, rel, strings.Join(allowed, ", "))
			}
		}
		// The package itself never reaches ui or data (the root packages
		// included: "data/" alone missed the embedded catalog's); its tests
		// may load the embedded catalog (data) to check real rows, never ui.
		for _, imp := range slices.Concat(p.Imports, p.TestImports, p.XTestImports) {
			rel, in := strings.CutPrefix(imp, module)
			under := func(root string) bool { return rel == root || strings.HasPrefix(rel, root+"/") }
			if in && (under("ui") || under("data") && slices.Contains(p.Imports, imp)) {
				t.Errorf("%s imports %s: nothing under model/ may import ui/ or data/", pkg, rel)
			}
		}
		for _, imp := range p.Imports {
			root, _, _ := strings.Cut(imp, "/")
			if slices.Contains(modelNoIO, root) {
				t.Errorf("%s imports %s: model/ code has no file or network access", pkg, imp)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range modelImports {
		if !seen[pkg] {
			t.Errorf("modelImports lists %s, which has no Go files", pkg)
		}
	}
}
