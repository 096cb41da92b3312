package serve_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model/serve"
)

// mistral32K is the new user's request: Mistral 7B, every request the
// whole 32K context (32512 + 256 tokens), TPOT target 100 ms. On an L40S
// one replica at 8 sequences decodes at 98.15 ms a token, at 6 at 77.36,
// at 4 at 56.24; the serve/tpot band's low end is exp(-0.41430) =
// 0.66079, so their slow ends are 148.5, 117.1 and 85.1 ms: only 4
// sequences a replica meets the target across the range.
var mistral32K = serve.Serving{MaxModelLen: 32768, PromptTokens: 32512, OutputTokens: 256, TPOTTargetMs: 100}

// TestPlanServingClearsBorderline: when the fewest replicas that carry
// the load meet the targets only at the estimate and the replicas are
// the planner's, an offer's plan is its split on the fewest nodes that
// meet them across their 90% ranges, filled (clearBorderline), saying
// how --replicas plans the fewer; replicas or GPUs given, a budget the
// clearing plan breaks, or a plan already clear stand as they are.
// Failing before: every row below with clearedFrom > 0 was planned on
// clearedFrom replicas, borderline.
func TestPlanServingClearsBorderline(t *testing.T) {
	a, g := modelGPU(t, "mistral-7b", "l40s")
	const usd = 1.861 // a g6e.xlarge's hour (1 × L40S), aws us-east-1 on-demand
	for _, tc := range []struct {
		name                         string
		perNode, conc, tp, rep, held int
		budget, tpot                 float64
		// want
		replicas, nodes int
		borderline      bool
		clearedFrom     int
	}{
		{name: "1 GPU a node, 16 requests: 2 replicas at 98.2 ms (slow end 148.5) become 4 at 56.2 ms (85.1), 4 × $1.861",
			perNode: 1, conc: 16, replicas: 4, nodes: 4, clearedFrom: 2},
		{name: "--tp 1 pins the split, the replicas stay the planner's: the same 4",
			perNode: 1, conc: 16, tp: 1, replicas: 4, nodes: 4, clearedFrom: 2},
		{name: "--replicas 2 given: borderline as asked",
			perNode: 1, conc: 16, rep: 2, replicas: 2, nodes: 2, borderline: true},
		{name: "--replicas 3 given: 6 sequences at 77.4 ms (slow end 117.1), still borderline",
			perNode: 1, conc: 16, rep: 3, replicas: 3, nodes: 3, borderline: true},
		{name: "4 GPUs a node, 32 requests: TP 1 × 4 at 8 sequences on 1 node becomes 2 nodes filled, TP 1 × 8 at 4",
			perNode: 4, conc: 32, replicas: 8, nodes: 2, clearedFrom: 4},
		{name: "4 GPUs a node, 16 requests: TP 1 × 4 at 4 sequences already clears",
			perNode: 4, conc: 16, replicas: 4, nodes: 1},
		{name: "GPUs given (one 4-GPU node, 32 requests): held, borderline",
			perNode: 4, conc: 32, held: 1, replicas: 4, nodes: 1, borderline: true},
		{name: "$3000 a month: 4 nodes cost 4 × $1.861 × 730 = $5434, over it; the 2 at $2717 stand",
			perNode: 1, conc: 16, budget: 3000, replicas: 2, nodes: 2, borderline: true},
		{name: "TPOT target 50 ms: 6 replicas at 45.6 ms (slow end 68.9) clear only as 16 at 23.9 (36.2), 16 × $1.861 = $29.78/h, over twice 6's $11.17: the 6 stand, naming the 16",
			perNode: 1, conc: 16, tpot: 50, replicas: 6, nodes: 6, borderline: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mistral32K
			s.Concurrency, s.TP, s.Replicas, s.Nodes, s.BudgetMonthUSD = tc.conc, tc.tp, tc.rep, tc.held, tc.budget
			if tc.tpot > 0 {
				s.TPOTTargetMs = tc.tpot
			}
			o := serve.Offer{Name: "l40s", GPU: g, GPUsPerNode: tc.perNode, Interconnect: "pcie", USDPerHour: usd * float64(tc.perNode)}
			p, err := serve.PlanServing(a, s, o)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Meets || p.TP != 1 || p.Replicas != tc.replicas || p.Nodes != tc.nodes || p.Borderline.IsZero() != !tc.borderline {
				t.Fatalf("meets %v, TP %d × %d replicas on %d nodes, borderline %q; want TP 1 × %d on %d, borderline %v",
					p.Meets, p.TP, p.Replicas, p.Nodes, p.Borderline, tc.replicas, tc.nodes, tc.borderline)
			}
			if want := float64(tc.nodes*tc.perNode) * usd; math.Abs(p.USDPerHour-want) > 1e-9 {
				t.Errorf("$%.4f/h, want %d nodes × $%.3f = $%.4f", p.USDPerHour, tc.nodes, float64(tc.perNode)*usd, want)
			}
			if p.ClearedFrom != tc.clearedFrom || p.Cleared.IsZero() != (tc.clearedFrom == 0) {
				t.Fatalf("cleared from %d (%q), want %d", p.ClearedFrom, p.Cleared, tc.clearedFrom)
			}
			if tc.tpot > 0 && !strings.HasSuffix(p.Borderline.String(), "; --replicas 16 meets them across the range at $29.78/h, over twice the cost") {
				t.Errorf("borderline %q: want it to name the 16 replicas that clear, over twice the cost (clearCostCap)", p.Borderline)
			}
			if tc.clearedFrom == 0 {
				return
			}
			// The fewer replicas the note names are the borderline plan,
			// at the price it says.
			few := s
			few.Replicas = tc.clearedFrom
			q, err := serve.PlanServing(a, few, o)
			if err != nil || !q.Meets || q.Borderline.IsZero() {
				t.Fatalf("--replicas %d: meets %v, borderline %q (%v); want borderline", tc.clearedFrom, q.Meets, q.Borderline, err)
			}
			if q.USDPerHour != p.ClearedFromUSDPerHour || !strings.Contains(p.Cleared.String(), q.Borderline.String()) {
				t.Errorf("cleared from $%.4f/h (%q); --replicas %d: $%.4f/h, %q", p.ClearedFromUSDPerHour, p.Cleared, tc.clearedFrom, q.USDPerHour, q.Borderline)
			}
		})
	}
}

// TestRankServingClearsBorderline (a new user's walk): aws ranked a
// g6e.12xlarge (4 × L40S, $10.49/h) first for Mistral 7B at 32K × 16,
// and the 1-GPU g6e.xlarge ($1.861/h) after it, 2 replicas borderline at
// $3.722/h. 4 of them clear the range at $7.444/h, less than $10.49: that
// offer ranks first, at that plan. Failing before: the g6e.12xlarge first.
func TestRankServingClearsBorderline(t *testing.T) {
	a, g := modelGPU(t, "mistral-7b", "l40s")
	s := mistral32K
	s.Concurrency = 16
	plans, err := serve.RankServing(a, s, []serve.Offer{
		{Name: "g6e.12xlarge", GPU: g, GPUsPerNode: 4, Interconnect: "pcie", USDPerHour: 10.493},
		{Name: "g6e.xlarge", GPU: g, GPUsPerNode: 1, USDPerHour: 1.861},
	})
	if err != nil {
		t.Fatal(err)
	}
	p := &plans[0]
	if p.Offer.Name != "g6e.xlarge" || p.Replicas != 4 || math.Abs(p.USDPerHour-7.444) > 1e-9 || !p.Borderline.IsZero() || p.ClearedFrom != 2 {
		t.Errorf("first %s: %d replicas at $%.3f/h, borderline %q, cleared from %d; want g6e.xlarge, 4 replicas at $7.444/h cleared from 2",
			p.Offer.Name, p.Replicas, p.USDPerHour, p.Borderline, p.ClearedFrom)
	}
	if q := &plans[1]; q.Offer.Name != "g6e.12xlarge" || q.Replicas != 4 || !q.Cleared.IsZero() {
		t.Errorf("second %s: %d replicas, cleared %q; want g6e.12xlarge at TP 1 × 4, as it was", q.Offer.Name, q.Replicas, q.Cleared)
	}
}

// TestPlanOnNodesWouldClear: on GPUs given (estimate --gpus 2) the plan
// stays on them, borderline, and Would names the replicas that meet the
// targets across their 90% ranges, PlanServing's plan of that offer
// unheld (nodes of 2 L40S: 4 replicas on 2 of them); with --tp given it
// names the replicas alone, and with --replicas given nothing. Failing
// before: no Would for a borderline plan.
func TestPlanOnNodesWouldClear(t *testing.T) {
	a, g := modelGPU(t, "mistral-7b", "l40s")
	for _, tc := range []struct {
		name    string
		tp, rep int
		would   string
	}{
		{"TP left to the planner", 0, 0, "--tp 1 --replicas 4 would meet them across their 90% range: 4 GPUs in all"},
		{"--tp 1 given", 1, 0, "--replicas 4 would meet them across their 90% range: 4 GPUs in all"},
		{"--replicas 2 given", 0, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mistral32K
			s.Concurrency, s.TP, s.Replicas = 16, tc.tp, tc.rep
			p, err := serve.PlanOnNodes(a, s, serve.GPUOffer(g, 2), 1)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Meets || p.Borderline.IsZero() || p.GPUs != 2 || p.Replicas != 2 || !p.Cleared.IsZero() {
				t.Fatalf("meets %v, borderline %q, %d replicas on %d GPUs, cleared %q; want 2 on the 2 given, borderline", p.Meets, p.Borderline, p.Replicas, p.GPUs, p.Cleared)
			}
			if got := p.Would.String(); got != tc.would {
				t.Errorf("would %q, want %q", got, tc.would)
			}
		})
	}
}
