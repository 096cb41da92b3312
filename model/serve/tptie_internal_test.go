package serve

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestBetterPlanTPTie: two splits of one question on the same GPUs that
// both carry the whole load serve the same output tokens/s, the load's,
// but summed over their replicas in floating point: a new user's walk
// (Llama 3.1 8B at 10 requests/s × 256 output tokens on L4) had TP 2 × 6
// replicas at 2559.9999999999995 tokens/s and TP 4 × 3 at
// 2560.0000000000005, so TP 4 was chosen, said as "TP 2 serves 2560 output
// tokens/s on the same 12 GPUs where TP 4 serves 2560", where
// docs/serving.md gives a tie to the smaller TP. Failing before: TP 4 won
// and the reason line named no difference.
func TestBetterPlanTPTie(t *testing.T) {
	g := &model.GPU{Name: "NVIDIA L4"}
	plan := func(tp, replicas int, out, usd float64) Plan {
		p := Plan{Offer: Offer{Name: "l4", GPU: g}, TP: tp, PP: 1, Replicas: replicas, GPUs: tp * replicas,
			Meets: true, Fits: true, OutputTokensPerSec: out, USDPerHour: usd,
			Memory: Memory{TotalBytes: 1}}
		if usd > 0 {
			p.USDPerMOutput = USDPerMillionTokens(usd, out)
		}
		return p
	}
	tests := []struct {
		name   string
		p, q   Plan
		better bool // betterPlan(p, q)
	}{
		{name: "12 GPUs, 2560 tok/s summed as 6 × 426.67 vs 3 × 853.33: a tie, TP 2 < TP 4",
			p: plan(2, 6, 2559.9999999999995, 0), q: plan(4, 3, 2560.0000000000005, 0), better: true},
		{name: "the same tie the other way round: TP 4 is not better than TP 2",
			p: plan(4, 3, 2560.0000000000005, 0), q: plan(2, 6, 2559.9999999999995, 0), better: false},
		{name: "priced alike, $12/h each: $/Mtok 1302.08 both, TP 2 first",
			p: plan(2, 6, 2559.9999999999995, 12), q: plan(4, 3, 2560.0000000000005, 12), better: true},
		{name: "a real difference, 2560 vs 2600 tok/s on 12 GPUs: the faster TP 4",
			p: plan(4, 3, 2600, 0), q: plan(2, 6, 2560, 0), better: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := betterPlan(&tt.p, &tt.q); got != tt.better {
				t.Errorf("betterPlan(TP %d, TP %d) = %v, want %v", tt.p.TP, tt.q.TP, got, tt.better)
			}
		})
	}
	// The reason line names the two rates where they differ.
	best, tied := plan(4, 3, 2600, 0), plan(2, 6, 2560, 0)
	if got, want := chosenTP(&best, []Plan{tied}).String(), "TP 4 chosen, not TP 2: TP 2 serves 2560 output tokens/s on the same 12 GPUs where TP 4 serves 2600; --tp pins the split"; got != want {
		t.Errorf("chosenTP() = %q, want %q", got, want)
	}
}
