package serve

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// llama31_405B is Llama 3.1 405B's shape (config.json: 126 layers, hidden
// 16384, 128 heads, 8 KV heads, FFN 53248, vocabulary 128256).
var llama31_405B = model.Architecture{Key: "llama-3.1-405b", Family: model.FamilyDecoder, Layers: 126, Hidden: 16384, Heads: 128, KVHeads: 8,
	FFN: 53248, Vocab: 128256}

// A plan whose nearest layout to fitting is a pipeline over more
// instances than one says how many GPUs a replica needs, not a TP × PP of
// GPUs the offer does not have (walk35: Llama 3.1 405B on one GH200 read
// "TP 1 × PP 8: … short" of a 1-GPU offer). Hand-worked from this shape:
// 405B's layers in bf16 at PP 8 leave about 69 GiB of weights and 5 GiB of
// activations a GPU, past the H100 fixture's 72.0 GiB budget (80 GiB ×
// 0.9): no pipeline of up to 8 one-GPU instances holds it. Llama 3.1 70B (131.4 GiB) does fit one at PP 4 (32.9 GiB a
// GPU); its reason is the Ray cluster the pipeline needs, left as it is.
func TestSpansShortSaysGPUsNeeded(t *testing.T) {
	s := Serving{WeightFormat: WeightBF16, MaxModelLen: 4096, PromptTokens: 3840, OutputTokens: 256, Concurrency: 1}
	p, err := PlanServing(&llama31_405B, s, GPUOffer(&h100SXM, 1))
	if err != nil {
		t.Fatal(err)
	}
	want := "one replica needs more than 8 GPUs (8 instances of 1 GPU, the most planned, do not hold it): TP 1 × PP 8: weights "
	if p.Fits || len(p.Reasons) == 0 || !strings.HasPrefix(p.Reasons[0], want) || p.Reasons[0] != p.ReasonMsgs[0].String() {
		t.Errorf("405B on 1 H100: fits %v, reasons %q; want the first to start %q", p.Fits, p.Reasons, want)
	}
	// Pinned to one GPU (--pp 1): the reason is of that GPU, unchanged.
	s1 := s
	s1.PP = 1
	if p, _ := PlanServing(&llama31_405B, s1, GPUOffer(&h100SXM, 1)); len(p.Reasons) == 0 || !strings.HasPrefix(p.Reasons[0], "TP 1 × PP 1: weights ") {
		t.Errorf("405B on 1 H100 at --pp 1: reasons %q", p.Reasons)
	}
	p, err = PlanServing(&llama31_70B, s, GPUOffer(&h100SXM, 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Reasons) == 0 || strings.Contains(p.Reasons[0], "needs more than") || !strings.Contains(p.Reasons[0], "Ray cluster") {
		t.Errorf("70B on 1 H100: reasons %q; want the Ray cluster a 4-stage pipeline needs", p.Reasons)
	}
}
