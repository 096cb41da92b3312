package market

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestEmptyHints: a GPU count no instance type has names the counts
// there are; NVLink asked of AMD GPUs names Infinity Fabric; filters that
// can match say nothing.
func TestEmptyHints(t *testing.T) {
	cat := &model.Catalog{
		GPUs: []model.GPU{{Key: "h100", Name: "H100", Vendor: "nvidia", MemoryGiB: 80}, {Key: "mi300x", Name: "MI300X", Vendor: "amd", MemoryGiB: 192}},
		Instances: []model.Instance{
			{Provider: "p", Type: "a", GPU: "h100", GPUCount: 1}, {Provider: "p", Type: "b", GPU: "h100", GPUCount: 8},
			{Provider: "p", Type: "c", GPU: "mi300x", GPUCount: 8, Interconnect: "infinity-fabric"},
		},
	}
	cat.Index()
	spec := func(text string) GPUSpec {
		s, err := ParseGPUSpec(text, cat)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		return s
	}
	for _, tt := range []struct {
		q    Query
		want string
	}{
		{Query{GPUs: []GPUSpec{spec("H100:9")}}, "no H100 instance type has 9 GPUs; the catalog's have 1, 8"},
		{Query{GPUs: []GPUSpec{spec("MI300X:8")}, Interconnect: LinkNVLink}, "MI300X joins its GPUs with AMD's Infinity Fabric (xGMI), never NVLink"},
		{Query{GPUs: []GPUSpec{spec("H100:8")}, Interconnect: LinkNVLink}, ""},
		{Query{GPUs: []GPUSpec{spec("H100:8")}}, ""},
	} {
		var got []string
		for _, m := range EmptyHints(cat, &tt.q) {
			got = append(got, m.String())
		}
		all := strings.Join(got, " | ")
		if tt.want == "" && all != "" || !strings.Contains(all, tt.want) {
			t.Errorf("%+v: hints %q, want %q", tt.q.GPUs[0].Text, all, tt.want)
		}
	}
}
