package serve_test

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/serve"
)

// TestPlanSaysWhyItPipelines is issue 30's held-out serving case: Llama 3.1
// 8B at max_model_len 29000 and max_num_batched_tokens 29000 on a one-GPU
// RTX 3090 node, one request (vLLM #10517 reports 23,648 KV tokens there:
// less than one request, so vLLM refuses the length). The planner may grow
// an automatic pipeline to two nodes, but the plan must say why (Grown:
// the one-stage layout's reason); and where one GPU fits but misses the
// TPOT target, no layout meets it, so the smallest layout that fits stays
// (TP 1 × PP 1), with the target reported missed — never a multi-node
// pipeline for latency.
func TestPlanSaysWhyItPipelines(t *testing.T) {
	a, g := modelGPU(t, "llama-3.1-8b", "rtx-3090")
	o := serve.Offer{Name: "1×RTX 3090", GPU: g, GPUsPerNode: 1}

	long := serve.Serving{MaxModelLen: 29000, PromptTokens: 28744, OutputTokens: 256, MaxNumBatchedTokens: 29000, Concurrency: 1}
	p, err := serve.PlanServing(a, long, o)
	if err != nil {
		t.Fatal(err)
	}
	if p.PP == 1 {
		if p.Fits {
			t.Fatalf("one RTX 3090 now fits a 29000-token request (%d KV tokens): the case no longer grows a pipeline", p.Memory.KVTokens)
		}
	} else {
		why := p.Grown.String()
		if why == "" || !strings.Contains(why, "TP 1 × PP 1") || !strings.Contains(why, "less than one 29000-token request") {
			t.Errorf("PP %d over %d nodes with Grown %q: want the one-stage layout's reason (KV cache less than one 29000-token request)", p.PP, p.Nodes, why)
		}
	}

	// One GPU fits a 16k request but not a 20 ms TPOT (its decode step alone
	// reads 15 GB of weights and 2 GB of KV cache at 936 GB/s): keep it, say so.
	tight := serve.Serving{MaxModelLen: 16384, PromptTokens: 16128, OutputTokens: 256, Concurrency: 1, TPOTTargetMs: 20}
	p, err = serve.PlanServing(a, tight, o)
	if err != nil {
		t.Fatal(err)
	}
	if p.TP != 1 || p.PP != 1 || p.GPUs != 1 || !p.Fits || p.Meets || !p.Grown.IsZero() {
		t.Errorf("TPOT 20 ms on one RTX 3090: TP %d × PP %d on %d GPUs, fits %v, meets %v, grown %q; want TP 1 × PP 1 on 1 GPU, fits, targets missed, nothing grown",
			p.TP, p.PP, p.GPUs, p.Fits, p.Meets, p.Grown)
	}
	if len(p.Reasons) == 0 || !strings.Contains(strings.Join(p.Reasons, "; "), "target 20.0 ms") {
		t.Errorf("reasons %q: want the missed TPOT target", p.Reasons)
	}
}
