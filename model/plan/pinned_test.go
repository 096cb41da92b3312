package plan

import (
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestPinnedServing: the verdict gpuplan plan, estimate --phase and
// export --phase give a serving phase on its pinned offer, from one
// function (walk36). Llama 3.1 70B in bf16 on A10Gs (22.06 GiB usable,
// × gpu_memory_utilization 0.9 = 19.85 GiB): its weights are 131.4 GiB
// over TP × PP GPUs, activations 1.2 GiB, non-torch 0.15 GiB, and one
// 4096-token request's KV cache 4096 × 320 KiB ÷ TP per GPU.
//   - one g5.8xlarge (1 A10G): TP 1 × PP 1, 19.85 − 131.4 − 1.2 − 0.15
//     leaves −112.9 GiB, 114.2 GiB short with the request's 1.25 GiB;
//     export said "needs 8 GPUs … Ray" (a pipeline over eight instances
//     the phase does not rent);
//   - one g5.12xlarge (4 A10Gs): TP 4 × PP 1, 32.85 GiB per GPU, 14.7
//     GiB short (−14.36 GiB less the request's 0.31 GiB);
//   - two g5.12xlarge: TP 4 × PP 2 (16.4 GiB per GPU) fits, but one
//     replica spans both instances: a Ray cluster (vLLM "Distributed
//     inference and serving"), refused without allow_multi_node, where
//     estimate --phase said 14.7 GiB short on one instance's 4 GPUs;
//   - the same with allow_multi_node: planned, not refused, and not
//     exported (NoExport).
func TestPinnedServing(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	a, err := cat.Model("llama-3.1-70b")
	if err != nil {
		t.Fatal(err)
	}
	offer := func(typ string) serve.Offer { return awsServingOffer(t, cat, a, typ) }
	const short = "TP %d × PP 1: weights %s GiB + activations 1.2 GiB per GPU leave no KV cache in 19.9 GiB (gpu_memory_utilization 0.9), %s GiB per GPU short of one 4096-token request"
	tests := []struct {
		name      string
		instance  string
		n         int
		multiNode bool
		tp, pp    int
		verdict   string
		refused   bool
		noExport  bool
	}{
		{"1 × g5.8xlarge: 114.2 GiB per GPU short on its one A10G", "g5.8xlarge", 1, false, 1, 1,
			"does not fit its pinned offer: " + model.Msg(short, 1, "131.4", "114.2").String(), true, false},
		{"1 × g5.12xlarge: 14.7 GiB per GPU short on its 4 A10Gs", "g5.12xlarge", 1, false, 4, 1,
			"does not fit its pinned offer: " + model.Msg(short, 4, "32.9", "14.7").String(), true, false},
		{"2 × g5.12xlarge: TP 4 × PP 2 over both, a Ray cluster", "g5.12xlarge", 2, false, 4, 2,
			"needs more GPUs than one instance of its pinned offer has: one replica spans 2 instances (TP 4 × PP 2 over 4 GPUs each): pipeline parallel across nodes needs a Ray cluster (allow_multi_node)", true, false},
		{"2 × g5.12xlarge, allow_multi_node: planned, not exported", "g5.12xlarge", 2, true, 4, 2,
			"", false, true},
	}
	for _, tt := range tests {
		// The request a plan file's answers model = "llama-3.1-70b", task =
		// "inference" give (config.WorkloadAnswers.Serving): bf16, 4096 tokens.
		s := serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 4096, PromptTokens: 3840, OutputTokens: 256, Concurrency: 1, AllowMultiNode: tt.multiNode}
		pin, err := PinnedServing(a, s, offer(tt.instance), tt.n)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		p := &pin.Plan
		if p.TP != tt.tp || p.PP != tt.pp || pin.Refused != tt.refused || p.NoExport.IsZero() == tt.noExport {
			t.Errorf("%s: TP %d × PP %d, refused %v, not exported %q; want TP %d × PP %d, refused %v, not exported %v",
				tt.name, p.TP, p.PP, pin.Refused, p.NoExport, tt.tp, tt.pp, tt.refused, tt.noExport)
		}
		if tt.verdict != "" && pin.Verdict.String() != tt.verdict {
			t.Errorf("%s: verdict\n %q\nwant\n %q", tt.name, pin.Verdict, tt.verdict)
		}
		if tt.refused && len(p.ReasonMsgs) > 0 && pin.Verdict.String() == "" {
			t.Errorf("%s: refused without a verdict", tt.name)
		}
	}
}

// awsServingOffer is the pinned serving offer of aws typ in us-east-1,
// on demand, for model a, as a plan phase pinned there finds it.
func awsServingOffer(t *testing.T, cat *model.Catalog, a *model.Architecture, typ string) serve.Offer {
	t.Helper()
	ph := Phase{Provider: "aws", Instance: typ, Region: "us-east-1", Pricing: model.OnDemand}
	w := model.Workload{Settings: model.Settings{Task: model.TaskInference}, Model: *a}
	sc := PhaseScenarioFor(&ph, w, model.Query{}, cat)
	offers := sc.PinnedOffers(cat, typ)
	if len(offers) == 0 || offers[0].Instance.Type != typ {
		t.Fatalf("no offer of aws %s", typ)
	}
	return offers[0]
}
