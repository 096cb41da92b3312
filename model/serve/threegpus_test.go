package serve_test

import (
	"testing"

	"github.com/gpuplan/gpuplan/model/serve"
)

// TestPlanOnThreeGPUs: a box of 3 GPUs given (estimate --gpus 3) is
// searched as vLLM allows it: TP that does not divide the GPUs (leaving
// the rest idle) and a pipeline of any size on them. Llama 3.3 70B in fp8
// is 67.7 GiB of weights: one H100's 71.3 GiB budget less 4.8 GiB of
// activations cannot hold them with a request (TP 1 × PP 1 does not fit),
// TP 2 holds them on 2 GPUs, 1 idle, but its KV cache holds 53 of the 64
// requests asked, and TP 1 × PP 3 over all three carries them (walk49:
// "✗ does not fit 3 × H100: TP 1 × PP 1", only TP 1 was tried, while
// --tp 1 --pp 3 served).
func TestPlanOnThreeGPUs(t *testing.T) {
	a, g := modelGPU(t, "llama-3.3-70b", "h100-sxm")
	base := serve.Serving{WeightFormat: serve.WeightFP8, MaxModelLen: 4096, PromptTokens: 3840, OutputTokens: 256, Concurrency: 64, TPOTTargetMs: 100}
	for _, tt := range []struct {
		name               string
		tp, pp, replicas   int
		wantTP, wantPP     int
		wantReplicas, idle int
		fits, meets        bool
	}{
		{"split left open: a pipeline over the 3", 0, 0, 0, 1, 3, 1, 0, true, true},
		{"--replicas 1: the same split, 1 replica", 0, 0, 1, 1, 3, 1, 0, true, true},
		{"--tp 2: 2 GPUs serve, 1 idle; 53 of 64 requests", 2, 1, 0, 2, 1, 1, 1, true, false},
		{"--tp 1 --pp 1: does not fit, 1 replica named (not 0)", 1, 1, 1, 1, 1, 1, 0, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := base
			s.TP, s.PP, s.Replicas = tt.tp, tt.pp, tt.replicas
			p, err := serve.PlanOnNodes(a, s, serve.GPUOffer(g, 3), 1)
			if err != nil {
				t.Fatal(err)
			}
			if p.TP != tt.wantTP || p.PP != tt.wantPP || p.Replicas != tt.wantReplicas || p.Fits != tt.fits || p.Meets != tt.meets {
				t.Errorf("TP %d × PP %d, %d replicas, fits %v, meets %v (%v); want TP %d × PP %d, %d replicas, fits %v, meets %v",
					p.TP, p.PP, p.Replicas, p.Fits, p.Meets, p.Reasons, tt.wantTP, tt.wantPP, tt.wantReplicas, tt.fits, tt.meets)
			}
			if tt.fits && (p.GPUs != 3 || p.IdleGPUs != tt.idle) {
				t.Errorf("%d GPUs, %d idle; want 3, %d idle", p.GPUs, p.IdleGPUs, tt.idle)
			}
		})
	}
}
