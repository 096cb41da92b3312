package data_test

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// TestCalibratedVendors: model.CalibratedVendors names exactly the GPU
// vendors the calibration suite has a time or memory case on, so a time
// on any other vendor's GPU gets the widened band and its note
// (model.widenForVendor), and a first AMD case ends the widening for AMD.
func TestCalibratedVendors(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	s, _ := loadSuite(t)
	var got []string
	for _, c := range s.Case {
		g, err := cat.GPU(c.GPU)
		if err != nil {
			t.Fatalf("case %s: %v", c.ID, err)
		}
		if v := strings.ToLower(g.Vendor); !slices.Contains(got, v) {
			got = append(got, v)
		}
	}
	sort.Strings(got)
	want := slices.Clone(model.CalibratedVendors)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("the suite's cases run on %v; model.CalibratedVendors says %v", got, want)
	}
}
