package serve_test

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model/serve"
)

// TestServingBorderline (issue 31 round 4, item 1): Llama 3.1 70B bf16 at
// 5 requests/s of 1024 + 300 tokens, TPOT target 100 ms. A plan meeting
// the target at the estimate whose 90% TPOT range crosses it is
// borderline and ranks after every plan that meets it across its range.
// The serve/tpot band is of speed; its low end is exp(-0.41430) = 0.66079
// (calibration_bands.go), so the slow end of a TPOT of t ms is t / 0.66079
// and every plan above 66.08 ms is borderline at a 100 ms target. Failing
// before: no Borderline, and the cheapest plan meeting the target at the
// estimate ranked first whatever its range (do's 1×MI300X at 97.3 ms,
// range 72–334 ms, with the band of then). The 1×MI300X's one replica
// still meets the target only at the estimate; the planner rents the
// replicas that clear its range instead (clearBorderline), and says so.
func TestServingBorderline(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	a, err := cat.Model("llama-3.1-70b")
	if err != nil {
		t.Fatal(err)
	}
	mi, err := cat.GPU("mi300x")
	if err != nil {
		t.Fatal(err)
	}
	offers := append(servingOffers(t, cat), serve.Offer{Name: "1×MI300X", GPU: mi, GPUsPerNode: 1, USDPerHour: 2})
	s := serve.Serving{MaxModelLen: 4096, PromptTokens: 1024, OutputTokens: 300, RequestsPerSec: 5, TPOTTargetMs: 100}
	plans, err := serve.RankServing(a, s, offers)
	if err != nil {
		t.Fatal(err)
	}
	const slowEnd = 0.66079 // exp(-0.41430)
	seenBorderline, sawMI := false, false
	for _, p := range plans {
		if !p.Meets {
			if !p.Borderline.IsZero() {
				t.Errorf("%s misses yet is marked borderline: %v", p.Offer.Name, p.Borderline)
			}
			continue
		}
		tpot := p.Perf.TPOTSec * 1e3
		crosses := tpot/slowEnd > 100
		if crosses && p.Borderline.IsZero() {
			t.Errorf("%s: TPOT %.1f ms, slow end %.0f ms above the 100 ms target, not borderline", p.Offer.Name, tpot, tpot/slowEnd)
		}
		if !crosses && math.Abs(tpot/slowEnd-100) > 1 && !p.Borderline.IsZero() && p.Memory.KVTokens > 0 {
			// KV borderline: the low end of the KV range must be short of the batch.
			lo := float64(p.Memory.KVTokens) * math.Exp(-0.51073)
			if need := float64(p.Perf.Batch) * (1024 + 300/2.0); lo >= need {
				t.Errorf("%s: borderline %v, yet TPOT %.1f ms and KV low end %.0f ≥ %.0f tokens meet", p.Offer.Name, p.Borderline, tpot, lo, need)
			}
		}
		if p.Borderline.IsZero() && seenBorderline {
			t.Errorf("%s meets across its range but ranks after a borderline plan", p.Offer.Name)
		}
		seenBorderline = seenBorderline || !p.Borderline.IsZero()
		if p.Offer.Name == "1×MI300X" {
			sawMI = true
			if p.Cleared.IsZero() || p.ClearedFrom < 1 || p.ClearedFrom >= p.Replicas || !p.Borderline.IsZero() {
				t.Errorf("1×MI300X: %d replicas at TPOT %.1f ms, cleared from %d (%q), borderline %q; want more replicas than the fewest, clearing the range",
					p.Replicas, tpot, p.ClearedFrom, p.Cleared, p.Borderline)
			}
			few := s
			few.Replicas = p.ClearedFrom
			q, err := serve.PlanServing(a, few, p.Offer)
			if err != nil || !q.Meets || q.Borderline.IsZero() {
				t.Errorf("1×MI300X at --replicas %d: meets %v, borderline %q, err %v; want borderline", p.ClearedFrom, q.Meets, q.Borderline, err)
			}
		}
	}
	if !sawMI {
		t.Fatal("1×MI300X does not meet the targets; the test needs it to meet at the estimate")
	}
	if p := plans[0]; !p.Meets || !p.Borderline.IsZero() {
		t.Errorf("first plan %s: meets %v, borderline %v; want one meeting across its range", p.Offer.Name, p.Meets, p.Borderline)
	}
}

// TestServingNearMissesClosestFirst (issue 31 round 4, item 2): at an
// unreachable TPOT target (3 ms for 70B bf16) no plan meets, and the near
// misses ranked first must be those that come closest: each offer at its
// fastest layout (8×H100 at TP 8, not 1×H100 replicas), and the offers in
// order of Shortfall, here TPOT ÷ 3 ms. Failing before: misses ranked by
// $/h, the cheapest (slowest) first.
func TestServingNearMissesClosestFirst(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	a, err := cat.Model("llama-3.1-70b")
	if err != nil {
		t.Fatal(err)
	}
	s := serve.Serving{MaxModelLen: 4096, PromptTokens: 1024, OutputTokens: 300, RequestsPerSec: 5, TPOTTargetMs: 3}
	plans, err := serve.RankServing(a, s, servingOffers(t, cat))
	if err != nil {
		t.Fatal(err)
	}
	if plans[0].Meets || !plans[0].Fits || plans[0].Offer.Name != "8×H100 SXM" || plans[0].TP != 8 {
		t.Fatalf("closest %s TP %d (meets %v): want 8×H100 SXM at TP 8, the fastest layout", plans[0].Offer.Name, plans[0].TP, plans[0].Meets)
	}
	for i := 1; i < len(plans) && plans[i].Fits; i++ {
		p, q := &plans[i-1], &plans[i]
		if q.Shortfall < p.Shortfall {
			t.Errorf("%s (%.2f× short) ranked after %s (%.2f×)", q.Offer.Name, q.Shortfall, p.Offer.Name, p.Shortfall)
		}
		if want := q.Perf.TPOTSec * 1e3 / 3; q.Shortfall < want*(1-1e-9) {
			t.Errorf("%s: shortfall %.3f, want at least TPOT %.2f ms ÷ 3 ms = %.3f", q.Offer.Name, q.Shortfall, q.Perf.TPOTSec*1e3, want)
		}
	}
}
