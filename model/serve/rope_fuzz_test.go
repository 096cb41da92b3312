package serve

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// FuzzParseRopeScaling: --rope-scaling, [serve] rope_scaling and the
// configurator's YaRN field are user input. ParseRopeScaling must never
// panic, must return only scalings the planner accepts (a factor above 1
// and at most MaxRopeFactor, original positions within model.MaxSeqLen
// and their product too), and what it accepts must read back from its
// own String, as a save writes it and a reload reads it.
func FuzzParseRopeScaling(f *testing.F) {
	for _, s := range []string{"yarn:4", "yarn:2:32768", "YaRN:4:32K", "yarn:1.5:8k", "none", "", "yarn", "yarn:1", "yarn:65",
		"yarn:NaN", "yarn:Inf", "yarn:0x1p1", "yarn:4:0", "yarn:64:1048576", "dynamic:2", "yarn:4:32768:1", " yarn : 4 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRopeScaling(s)
		if err != nil {
			if !r.IsZero() {
				t.Fatalf("%q: error %v with a scaling %+v", s, err, r)
			}
			return
		}
		if r.IsZero() {
			return
		}
		if !(r.Factor > 1 && r.Factor <= MaxRopeFactor) || r.Original < 0 || r.Original > model.MaxSeqLen ||
			r.Original > 0 && float64(r.Original)*r.Factor > model.MaxSeqLen {
			t.Fatalf("%q: accepted %+v", s, r)
		}
		back, err := ParseRopeScaling(r.String())
		if err != nil || back != r {
			t.Fatalf("%q: %+v writes %q, which reads back as %+v, %v", s, r, r.String(), back, err)
		}
	})
}
