package data_test

import (
	"math"
	"path/filepath"
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
// suite's [[arch]] keys are all probe.Arch's; every suite case
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
	files, err := filepath.Glob(calibrationGlob)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		var one probe.Suite
		md, err := toml.DecodeFile(f, &one)
		if err != nil || len(md.Undecoded()) > 0 {
			t.Fatalf("%s does not decode into probe.Suite: %v %v", f, err, md.Undecoded())
		}
		s.Arch = append(s.Arch, one.Arch...)
		s.Case = append(s.Case, one.Case...)
	}
	suite, fileOf := loadSuite(t)
	if len(s.Case) != len(suite.Case) {
		t.Fatalf("%d cases, the suite has %d", len(s.Case), len(suite.Case))
	}
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	runs := prepareCases(t, cat, suite, fileOf)
	byID := map[string]*calCaseRun{}
	for _, r := range runs {
		byID[r.c.ID] = r
	}
	archs := map[string]*probe.Arch{}
	for i := range s.Arch {
		archs[s.Arch[i].Key] = &s.Arch[i]
	}
	for _, c := range s.Case {
		if c.NetworkGbps > 0 || c.GPUsPerNode > 0 {
			continue // the node a published run measured: the probe never sets it
		}
		run := byID[c.ID]
		if run == nil {
			t.Errorf("%s: not prepared by the suite's test", c.ID)
			continue
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
		r := run.predict(nil)
		if got := e.TorchAllocated / unitBytes(c.Unit); c.Quantity == "allocated" && math.Abs(got-r.predicted) > 1e-9*r.predicted {
			t.Errorf("%s: probe.Settings estimates %.6g %s, the suite %.6g", c.ID, got, c.Unit, r.predicted)
		}
		if got := e.TorchReserved / unitBytes(c.Unit); c.Quantity == "reserved" && math.Abs(got-r.predicted) > 1e-9*r.predicted {
			t.Errorf("%s: probe.Settings estimates %.6g %s reserved, the suite %.6g", c.ID, got, c.Unit, r.predicted)
		}
		if c.Quantity == "samples_per_second" && math.Abs(e.SamplesPerSecond-r.predicted) > 1e-9*r.predicted {
			t.Errorf("%s: probe.Settings estimates %.6g samples/s, the suite %.6g", c.ID, e.SamplesPerSecond, r.predicted)
		}
		if got := e.Memory.Total() / unitBytes(c.Unit); c.Quantity == "nvidia-smi" && math.Abs(got-r.predicted) > 1e-9*r.predicted {
			t.Errorf("%s: probe.Settings estimates %.6g %s, the suite %.6g", c.ID, got, c.Unit, r.predicted)
		}
		if got := e.SamplesPerSecond * float64(e.Workload.SeqLen); c.Quantity == "tokens_per_second" && math.Abs(got-r.predicted) > 1e-9*r.predicted {
			t.Errorf("%s: probe.Settings estimates %.6g tokens/s, the suite %.6g", c.ID, got, r.predicted)
		}
	}
}
