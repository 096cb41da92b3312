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
