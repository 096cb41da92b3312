package serve

import "testing"

// PlanOnGPU takes, of TP 1, 2, 4 and 8 planned each on its own GPUs, the
// plan meeting the targets on the fewest GPUs, on a tie the one that
// serves more output tokens/s (the lower cost per million, as recommend
// ranks an instance type's layouts), then the smaller TP;
// a TP the user fixed is the only one tried. Llama 3.1 70B in bf16
// (131.4 GiB of weights) does not fit one or two H100s at a 4096-token
// context with room to spare at TP 2 only for a few sequences, so the
// GPUs needed fall as TP grows until the load fits one replica.
func TestPlanOnGPU(t *testing.T) {
	for _, tt := range []struct {
		name   string
		s      Serving
		wantTP int // when worked by hand; else the brute force below decides
	}{
		{"8 concurrent", Serving{WeightFormat: WeightBF16, MaxModelLen: 4096, PromptTokens: 3840, OutputTokens: 256, Concurrency: 8}, 0},
		{"64 concurrent", Serving{WeightFormat: WeightBF16, MaxModelLen: 4096, PromptTokens: 3840, OutputTokens: 256, Concurrency: 64}, 0},
		{"256 concurrent, 50 ms TPOT", Serving{WeightFormat: WeightBF16, MaxModelLen: 4096, PromptTokens: 3840, OutputTokens: 256, Concurrency: 256, TPOTTargetMs: 50}, 0},
		{"TP 8 fixed", Serving{WeightFormat: WeightBF16, MaxModelLen: 4096, PromptTokens: 3840, OutputTokens: 256, Concurrency: 8, TP: 8}, 8},
	} {
		got, err := PlanOnGPU(&llama31_70B, tt.s, &h100SXM)
		if err != nil {
			t.Fatal(err)
		}
		// Each TP alone, on nodes of exactly TP GPUs: the fewest GPUs
		// among those that meet (within the 90% ranges if any does), the
		// most output tokens/s of those, the smallest TP on a tie.
		bestTP, bestGPUs, bestBorder, bestTok := 0, 0, true, 0.0
		for _, tp := range []int{1, 2, 4, 8} {
			if tt.s.TP > 0 && tp != tt.s.TP {
				continue
			}
			s := tt.s
			s.TP = tp
			p, err := PlanServing(&llama31_70B, s, GPUOffer(&h100SXM, tp))
			if err != nil {
				t.Fatal(err)
			}
			border := !p.Borderline.IsZero()
			if p.Meets && (bestTP == 0 || bestBorder && !border || border == bestBorder && (p.GPUs < bestGPUs || p.GPUs == bestGPUs && p.OutputTokensPerSec > bestTok)) {
				bestTP, bestGPUs, bestBorder, bestTok = tp, p.GPUs, border, p.OutputTokensPerSec
			}
		}
		if bestTP == 0 {
			t.Fatalf("%s: no TP meets the load", tt.name)
		}
		if tt.wantTP > 0 && bestTP != tt.wantTP {
			t.Fatalf("%s: the worked TP is %d, the brute force %d", tt.name, tt.wantTP, bestTP)
		}
		if got.TP != bestTP || got.GPUs != bestGPUs || !got.Meets {
			t.Errorf("%s: TP %d × %d replicas on %d GPUs (meets %v), want TP %d on %d GPUs", tt.name, got.TP, got.Replicas, got.GPUs, got.Meets, bestTP, bestGPUs)
		}
		t.Logf("%s: TP %d × %d replicas on %d GPUs", tt.name, got.TP, got.Replicas, got.GPUs)
	}
}

// betterPlan without a price compares GPUs even when the question is
// the price of a token (PerToken): an estimate has no price, so all plans
// cost $0 per million tokens, and the fewer GPUs win; a tie in GPUs goes
// to the more output tokens/s (fewer GPU-hours per million, as a price
// per GPU would rank them), then to the smaller TP.
func TestBetterPlanNoPrice(t *testing.T) {
	mk := func(tp, gpus int, tok ...float64) Plan {
		p := Plan{Serving: Serving{PerToken: true}, TP: tp, PP: 1, GPUs: gpus, Fits: true, Meets: true, OutputTokensPerSec: 1000}
		if len(tok) > 0 {
			p.OutputTokensPerSec = tok[0]
		}
		return p
	}
	for _, tt := range []struct {
		name string
		p, q Plan
		want bool
	}{
		{"2 GPUs before 6", mk(2, 2), mk(1, 6), true},
		{"6 GPUs after 2", mk(1, 6), mk(2, 2), false},
		{"tie in GPUs: TP 4 before TP 8", mk(4, 8), mk(8, 8), true},
		{"tie in GPUs: TP 8 after TP 4", mk(8, 8), mk(4, 8), false},
		{"tie in GPUs: 1401 tokens/s before 1154", mk(8, 8, 1401), mk(4, 8, 1154), true},
		{"tie in GPUs: 1154 tokens/s after 1401", mk(4, 8, 1154), mk(8, 8, 1401), false},
		{"fewer GPUs before more tokens/s", mk(2, 2, 500), mk(8, 8, 1401), true},
	} {
		if got := betterPlan(&tt.p, &tt.q); got != tt.want {
			t.Errorf("%s: betterPlan %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A TP the user pinned with the pipeline left open keeps its stages in one
// node of the GPU when they fit there: Llama 3.1 70B in bf16 (131.4 GiB of
// weights) at TP 2 needs two stages at a 16384-token context (65.7 GiB of
// weights a GPU leave under 2 GiB of KV cache at 160 KiB a token, under
// 16384 tokens), so TP 2 × PP 2 on one node of 4 of an 8-GPU node, not 2
// nodes of 2 that need a Ray cluster (new-user walk).
func TestPlanOnGPUNodesPinnedTPKeepsStagesInNode(t *testing.T) {
	s := Serving{WeightFormat: WeightBF16, MaxModelLen: 16384, PromptTokens: 16128, OutputTokens: 256, Concurrency: 1, TP: 2}
	got, err := PlanOnGPUNodes(&llama31_70B, s, &h100SXM, 8)
	if err != nil {
		t.Fatal(err)
	}
	if got.TP != 2 || got.PP != 2 || got.Nodes != 1 || !got.Fits {
		t.Errorf("TP %d × PP %d on %d nodes (fits %v, reasons %v); want TP 2 × PP 2 on 1 node", got.TP, got.PP, got.Nodes, got.Fits, got.Reasons)
	}
	// With the pipeline given, it is kept: PP 2 is asked, so the same.
	s.PP = 2
	if got, err = PlanOnGPUNodes(&llama31_70B, s, &h100SXM, 8); err != nil || got.PP != 2 || got.Nodes != 1 {
		t.Errorf("--pp 2: PP %d on %d nodes, %v", got.PP, got.Nodes, err)
	}
}
