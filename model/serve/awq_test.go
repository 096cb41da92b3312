package serve_test

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestAWQNeedsTuring: vLLM's AWQ kernels refuse compute capability < 7.5
// (AWQConfig.get_min_capability = 75), so a V100 (7.0) gets no AWQ plan.
func TestAWQNeedsTuring(t *testing.T) {
	a := &model.Architecture{Family: model.FamilyDecoder, Layers: 2, Hidden: 512, Heads: 8, KVHeads: 8, FFN: 1024, Vocab: 1000}
	for _, tt := range []struct {
		cc   string
		want bool
	}{{"7.0", false}, {"7.5", true}, {"9.0", true}} {
		g := &model.GPU{Key: "g", Name: "G", Vendor: "nvidia", ComputeCapability: tt.cc, MemoryGiB: 32, MemoryBandwidthGBps: 900,
			FP16TFLOPS: 100, BF16TFLOPS: 100}
		p, err := serve.PlanServing(a, serve.Serving{WeightFormat: serve.WeightAWQ, MaxModelLen: 1024, PromptTokens: 512, OutputTokens: 128, Concurrency: 1},
			serve.Offer{Name: "x", GPU: g, GPUsPerNode: 1, USDPerHour: 1})
		if err != nil {
			t.Fatal(err)
		}
		refused := len(p.Reasons) > 0 && strings.Contains(p.Reasons[0], "AWQ")
		if refused == tt.want {
			t.Errorf("cc %s: refused=%v, reasons %v", tt.cc, refused, p.Reasons)
		}
	}
}

// TestServeOfferLinkFromGPU: a multi-GPU row without an interconnect takes
// its SXM GPU's link; a PCIe GPU's or a one-GPU row's stays unlinked.
func TestServeOfferLinkFromGPU(t *testing.T) {
	sxm := &model.GPU{Key: "h100-sxm", Interconnect: "nvlink", InterconnectGBps: 900}
	pcie := &model.GPU{Key: "l40s", Interconnect: "pcie"}
	for _, tt := range []struct {
		in   model.Instance
		g    *model.GPU
		want string
	}{
		{model.Instance{GPUCount: 2}, sxm, "nvlink"},
		{model.Instance{GPUCount: 1}, sxm, ""},
		{model.Instance{GPUCount: 4}, pcie, ""},
		{model.Instance{GPUCount: 8, Interconnect: "pcie"}, sxm, "pcie"},
	} {
		if got := serve.OfferFor(&tt.in, tt.g, 1, "x").Interconnect; got != tt.want {
			t.Errorf("%d× %s (row %q): link %q, want %q", tt.in.GPUCount, tt.g.Key, tt.in.Interconnect, got, tt.want)
		}
	}
}
