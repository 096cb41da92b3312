package serve

import (
	"slices"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestBorderlineFirst: clearCostCap across offers. A new user's walk
// (Qwen3 32B at 32K × 16 on aws L40S) ranked a 4-replica g6e.48xlarge
// that clears its range at $60.26/h best over a g6e.12xlarge borderline
// at $10.49/h, 5.7 times its cost; clearBorderline and keepBorderline
// leave that tail to the user past twice the cost, so the cheaper
// borderline plans rank first and name the clear one. Failing before:
// the clear plan stayed first.
func TestBorderlineFirst(t *testing.T) {
	bl := model.Msg("the 90%% range of the TPOT crosses the target")
	plan := func(name string, usd float64, border bool) Plan {
		p := Plan{Offer: Offer{Name: name}, USDPerHour: usd, Meets: true, Fits: true}
		if border {
			p.Borderline = bl
		}
		return p
	}
	miss := Plan{Offer: Offer{Name: "miss"}, Fits: true}
	tests := []struct {
		name  string
		plans []Plan
		want  []string
	}{
		{name: "$60.26 clear > 2 × $10.49 and 2 × $15.07: both borderline first",
			plans: []Plan{plan("48xl", 60.26, false), plan("12xl", 10.49, true), plan("24xl", 15.07, true), miss},
			want:  []string{"12xl", "24xl", "48xl", "miss"}},
		{name: "$20 clear ≤ 2 × $10.49: the clear plan stays first",
			plans: []Plan{plan("clear", 20, false), plan("bl", 10.49, true)},
			want:  []string{"clear", "bl"}},
		{name: "$25 clear > 2 × $10 but not 2 × $15: only the $10 moves",
			plans: []Plan{plan("clear", 25, false), plan("a", 10, true), plan("b", 15, true)},
			want:  []string{"a", "clear", "b"}},
		{name: "no clear plan: unchanged",
			plans: []Plan{plan("a", 10, true), plan("b", 15, true)},
			want:  []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := borderlineFirst(tt.plans)
			if len(got) != len(tt.want) {
				t.Fatalf("borderlineFirst() has %d plans, want %d", len(got), len(tt.want))
			}
			for i, w := range tt.want {
				if got[i].Offer.Name != w {
					t.Errorf("borderlineFirst()[%d] = %s, want %s", i, got[i].Offer.Name, w)
				}
			}
		})
	}
	got := borderlineFirst([]Plan{plan("48xl", 60.26, false), plan("12xl", 10.49, true)})
	if got[0].DearerOffer != "48xl" || got[0].DearerUSDPerHour != 60.26 {
		t.Errorf("Dearer = %q at $%.2f, want 48xl at $60.26", got[0].DearerOffer, got[0].DearerUSDPerHour)
	}
	if s := got[0].Dearer.String(); s != "48xl at $60.26/h, 5.7 times the cost" {
		t.Errorf("Dearer = %q", s)
	}
}

// TestBorderlineFirstPerToken: without a load the question is a price per
// token (Serving.PerToken) and betterPlan ranks by $ per million output
// tokens, so the rule compares that key. A walker's Llama 3.1 8B on aws L4
// with no load ranked g6.12xlarge ($4.60/h, $9.83/Mtok, clear) best over
// g6.xlarge ($0.80/h, $4.81/Mtok, borderline), where --concurrency 4, the
// same default, ranked g6.xlarge first. Failing before: the rule skipped
// per-token questions.
func TestBorderlineFirstPerToken(t *testing.T) {
	bl := model.Msg("the 90%% range of the TPOT crosses the target")
	plan := func(name string, usd, perM float64, border bool) Plan {
		p := Plan{Offer: Offer{Name: name}, Serving: Serving{PerToken: true}, USDPerHour: usd, USDPerMOutput: perM, Meets: true, Fits: true}
		if border {
			p.Borderline = bl
		}
		return p
	}
	got := borderlineFirst([]Plan{plan("12xl", 4.60, 9.83, false), plan("xl", 0.80, 4.81, true), plan("2xl", 0.98, 5.84, true)})
	var names []string
	for _, p := range got {
		names = append(names, p.Offer.Name)
	}
	// $9.83 > 2 × $4.81, not 2 × $5.84: only xl moves, though 4.60 > 2 × 0.98 an hour.
	if want := []string{"xl", "12xl", "2xl"}; !slices.Equal(names, want) {
		t.Fatalf("borderlineFirst() = %v, want %v", names, want)
	}
	if s := got[0].Dearer.String(); s != "12xl at $9.83 per million output tokens, 2.0 times the cost" {
		t.Errorf("Dearer = %q", s)
	}
	if got[0].DearerOffer != "12xl" || got[0].DearerUSDPerHour != 4.60 || got[0].DearerUSDPerMOutput != 9.83 {
		t.Errorf("Dearer = %q at $%.2f/h, $%.2f/Mtok", got[0].DearerOffer, got[0].DearerUSDPerHour, got[0].DearerUSDPerMOutput)
	}
	// $9.00 ≤ 2 × $4.81: unchanged.
	got = borderlineFirst([]Plan{plan("clear", 4.60, 9.00, false), plan("xl", 0.80, 4.81, true)})
	if got[0].Offer.Name != "clear" {
		t.Errorf("borderlineFirst()[0] = %s, want clear", got[0].Offer.Name)
	}
}
