package data_test

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/probe"
)

// tomlKeys lists the TOML keys of a struct type, embedded structs flattened.
func tomlKeys(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			out = append(out, tomlKeys(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// TestProbeCaseFormat: the cases gpuplan probe add and probe export write
// (probe.Case) have exactly the suite's case keys (calCase), and the
// suite's [[arch]] keys are a prefix of probe.Arch's; every suite case
// decodes into probe.Case and is estimated by probe.Settings.Workload as
// runCase estimates it.
func TestProbeCaseFormat(t *testing.T) {
	if got, want := tomlKeys(reflect.TypeOf(probe.Case{})), tomlKeys(reflect.TypeOf(calCase{})); !slices.Equal(got, want) {
		t.Errorf("probe.Case keys\n%q\ncalCase keys\n%q", got, want)
	}
	arch := tomlKeys(reflect.TypeOf(probe.Arch{}))
	for _, k := range tomlKeys(reflect.TypeOf(calArch{})) {
		if !slices.Contains(arch, k) {
			t.Errorf("probe.Arch lacks the suite's [[arch]] key %q", k)
		}
	}
	var s probe.Suite
	md, err := toml.DecodeFile(calibrationFile, &s)
	if err != nil || len(md.Undecoded()) > 0 {
		t.Fatalf("the suite does not decode into probe.Suite: %v %v", err, md.Undecoded())
	}
	suite := loadSuite(t)
	if len(s.Case) != len(suite.Case) {
		t.Fatalf("%d cases, the suite has %d", len(s.Case), len(suite.Case))
	}
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	archs := map[string]*probe.Arch{}
	for i := range s.Arch {
		archs[s.Arch[i].Key] = &s.Arch[i]
	}
	for i, c := range s.Case {
		sc := suite.Case[i]
		if c.LegacyTorch || c.PreTorch111 || c.LitGPT || c.InterGBps > 0 {
			continue // flags of published runs the probe never sets
		}
		w, g, err := c.Settings.Workload(cat, archs[c.Model])
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		e, err := model.Compute(w, g)
		if err != nil {
			t.Fatal(err)
		}
		a := map[string]model.Architecture{}
		for _, x := range suite.Arch {
			if x.Key == sc.Model {
				fam, _ := model.ParseFamily(x.Family)
				a[x.Key] = model.Architecture{Key: x.Key, Name: x.Key, Family: fam, Layers: x.Layers, Hidden: x.Hidden, Heads: x.Heads,
					FFN: x.FFN, Vocab: x.Vocab, Norm: model.Norm(x.Norm), Tied: x.Tied, KVHeads: x.KVHeads, GatedMLP: x.Gated}
			}
		}
		r := runCase(t, cat, a, sc)
		if got := e.TorchAllocated; sc.Quantity == "allocated" && math.Abs(got/1e9-r.predicted) > 1e-9*r.predicted {
			t.Errorf("%s: probe.Settings estimates %.6g GB, runCase %.6g", c.ID, got/1e9, r.predicted)
		}
		if sc.Quantity == "samples_per_second" && math.Abs(e.SamplesPerSecond-r.predicted) > 1e-9*r.predicted {
			t.Errorf("%s: probe.Settings estimates %.6g samples/s, runCase %.6g", c.ID, e.SamplesPerSecond, r.predicted)
		}
	}
}
