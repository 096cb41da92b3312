package serve

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestServeTPInsideNode: a fixed tensor-parallel degree above the node's
// GPUs is refused with a reason, never spread over nodes.
func TestServeTPInsideNode(t *testing.T) {
	a := model.Architecture{Family: model.FamilyDecoder, Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, Vocab: 128256, GatedMLP: true, MaxPositions: 131072}
	g := &model.GPU{Key: "l40s", Name: "L40S", MemoryGiB: 48, MemoryBandwidthGBps: 864, BF16TFLOPS: 362, FP16TFLOPS: 362}
	s := Serving{PromptTokens: 1000, OutputTokens: 200, Concurrency: 4, TP: 2}
	one := Offer{Name: "one-gpu", GPU: g, GPUsPerNode: 1, USDPerHour: 1}
	p, err := PlanServing(&a, s, one)
	if err != nil {
		t.Fatal(err)
	}
	if p.Fits || p.Meets || len(p.Reasons) == 0 || !strings.Contains(p.Reasons[0], "TP 2 needs 2 GPUs in one node") {
		t.Errorf("TP 2 on one-GPU nodes: fits %v meets %v reasons %q", p.Fits, p.Meets, p.Reasons)
	}
	two := one
	two.Name, two.GPUsPerNode = "two-gpu", 2
	if p, err := PlanServing(&a, s, two); err != nil || !p.Meets || p.TP != 2 {
		t.Errorf("TP 2 on a two-GPU node: %v, meets %v tp %d %q", err, p.Meets, p.TP, p.Reasons)
	}
}

// TestUnservable: vLLM's own hardware lists decide, not the price list: a
// CUDA GPU from compute capability 7.0 (V100, with a vLLM before v0.20.0,
// which the refusal says) serves, 6.x (P100) does not;
// an AMD GPU serves when its architecture is in vLLM's ROCm list (MI300X,
// CDNA 3), not the RDNA 1 V520; a GPU the speed model cannot time is
// refused for that.
func TestUnservable(t *testing.T) {
	for _, tt := range []struct {
		g    model.GPU
		want string // "" serves
	}{
		{model.GPU{Name: "V100", Vendor: "nvidia", ComputeCapability: "7.0", MemoryBandwidthGBps: 900, FP16TFLOPS: 125}, ""},
		{model.GPU{Name: "P100", Vendor: "nvidia", ComputeCapability: "6.0", MemoryBandwidthGBps: 732, FP16TFLOPS: 18.7}, "compute capability 7.0 or newer (Volta with a release before v0.20.0, Turing and later with any); P100 is 6.0"},
		{model.GPU{Name: "MI300X", Vendor: "amd", Architecture: "cdna3", MemoryBandwidthGBps: 5300, BF16TFLOPS: 1307}, ""},
		{model.GPU{Name: "V520", Vendor: "amd", Architecture: "rdna1"}, "V520 (rdna1) is not one of them"},
		{model.GPU{Name: "X", Vendor: "nvidia", ComputeCapability: "8.0"}, "no memory bandwidth or 16-bit TFLOPS for X"},
	} {
		got := Unservable(&tt.g).String()
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.g.Name, got, tt.want)
		}
	}
}
