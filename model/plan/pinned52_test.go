package plan

import (
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestPinnedServingExplicitReplicasPastRent (walk52): a serving phase that
// rents one g6.xlarge (one L4) but asks for serve.replicas = 3 was planned
// on three instances (serve.PlanOnNodes rents what given replicas need) and
// judged only borderline, so gpuplan plan priced one instance ($0.80/h)
// while export --phase wrote three ($2.41/h). Replicas (or TP × PP ×
// replicas GPUs) given past what the phase rents get the verdict auto
// replicas get when more instances carry the load: ✗, "the plan rents 1".
func TestPinnedServingExplicitReplicasPastRent(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	a, err := cat.Model("qwen3-8b")
	if err != nil {
		t.Fatal(err)
	}
	offer := func(typ string) serve.Offer { return awsServingOffer(t, cat, a, typ) }
	base := serve.Serving{WeightFormat: serve.WeightBF16, MaxModelLen: 4096, PromptTokens: 3840, OutputTokens: 256, Concurrency: 16}
	tests := []struct {
		name     string
		instance string
		n        int
		tp       int
		replicas int
		verdict  string
	}{
		{"3 replicas of TP 1 on 1 × g6.xlarge: 3 instances, the plan rents 1", "g6.xlarge", 1, 0, 3,
			"carries the phase's load on 3 instances of its pinned offer; the plan rents 1"},
		{"TP 2 × 3 replicas on 1 × g6.12xlarge (4 L4s): 6 GPUs, 2 instances", "g6.12xlarge", 1, 2, 3,
			"carries the phase's load on 2 instances of its pinned offer; the plan rents 1"},
		{"2 replicas on 1 × g6.xlarge: 2 instances, and 8 sequences each where the KV cache holds 6", "g6.xlarge", 1, 0, 2,
			"needs 2 instances of its pinned offer for the replicas it asks for (the plan rents 1), and misses the phase's load and latency targets on them: 16 concurrent requests over 2 replicas need 8 sequences each; the KV cache or max_num_seqs holds 6"},
	}
	for _, tt := range tests {
		s := base
		s.TP, s.Replicas = tt.tp, tt.replicas
		pin, err := PinnedServing(a, s, offer(tt.instance), tt.n)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if pin.Verdict.String() != tt.verdict || pin.Borderline || pin.Refused {
			t.Errorf("%s: verdict %q (borderline %v, refused %v), want %q, not borderline, not refused",
				tt.name, pin.Verdict, pin.Borderline, pin.Refused, tt.verdict)
		}
	}
}
