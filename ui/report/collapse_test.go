package report

import (
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

func TestRegionRuns(t *testing.T) {
	a := &model.Instance{Provider: "lambda", Type: "gpu_1x_gh200"}
	b := &model.Instance{Provider: "aws", Type: "g6.xlarge"}
	o := func(in *model.Instance, region string, usd float64) model.Offer {
		return model.Offer{Instance: in, Region: region, GPUs: 1, USDPerHour: usd, Pricing: model.OnDemand}
	}
	offers := []model.Offer{
		o(a, "us-east-1", 1.49), o(a, "us-east-3", 1.49), o(a, "us-west-1", 1.49), // one choice in 3 regions
		o(b, "us-east-1", 0.80), // another type
		o(b, "eu-west-1", 0.89), // same type, dearer: its own row
		o(a, "europe-1", 1.49),  // same as the first, but not next to it: the ranking decides
	}
	tests := []struct {
		name         string
		n            int
		starts, lens []int
	}{
		{"every run: 3 + 1 + 1 + 1 offers", -1, []int{0, 3, 4, 5}, []int{3, 1, 1, 1}},
		{"the first two runs", 2, []int{0, 3}, []int{3, 1}},
		{"none", 0, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			starts, lens := RegionRuns(offers, tt.n)
			if !slices.Equal(starts, tt.starts) || !slices.Equal(lens, tt.lens) {
				t.Errorf("RegionRuns(n=%d) = %v, %v; want %v, %v", tt.n, starts, lens, tt.starts, tt.lens)
			}
		})
	}
	out, used := CollapseRegions(offers, 2)
	if len(out) != 2 || out[0].Region != "us-east-1 +2" || out[1].Region != "us-east-1" || used != 4 {
		t.Errorf("CollapseRegions(2) = %d offers (%q, …), used %d; want 2 (\"us-east-1 +2\", \"us-east-1\"), used 4", len(out), out[0].Region, used)
	}
}
