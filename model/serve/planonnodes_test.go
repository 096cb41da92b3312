package serve_test

import (
	"fmt"
	"testing"

	"github.com/gpuplan/gpuplan/model/serve"
)

// TestPlanOnNodesBinds: the GPUs a user gives are all a plan rents
// (issue 30: --gpus 1 grew to 2 GPUs, --gpus 2 --tp 2 to 8–20). Auto
// replicas fill the nodes given and add none; a load they cannot carry is
// a miss whose Would names the replicas of the plan with auto replicas
// and its GPUs, which PlanServing on the same offer rents; --replicas
// given is planned as asked.
func TestPlanOnNodesBinds(t *testing.T) {
	a, g := modelGPU(t, "llama-3.1-8b", "l4")
	base := serve.Serving{MaxModelLen: 4096, PromptTokens: 1024, OutputTokens: 256, TP: 1}
	for _, tc := range []struct {
		name            string
		gpus, conc, rep int
		wantGPUs        int
		miss            bool
	}{
		{"a load one L4 carries: one replica, one GPU", 1, 1, 0, 1, false},
		{"two GPUs at TP 1: filled with two replicas", 2, 1, 0, 2, false},
		{"a load one L4 cannot carry: a miss on one GPU", 1, 64, 0, 1, true},
		{"--replicas given: rented as asked", 1, 64, 3, 3, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := base
			s.Concurrency, s.Replicas = tc.conc, tc.rep
			o := serve.GPUOffer(g, tc.gpus)
			p, err := serve.PlanOnNodes(a, s, o, 1)
			if err != nil {
				t.Fatal(err)
			}
			if p.GPUs != tc.wantGPUs {
				t.Errorf("%d GPUs, want %d", p.GPUs, tc.wantGPUs)
			}
			if tc.rep > 0 {
				return // Meets as the plan finds it; not held
			}
			if p.Meets == tc.miss || (p.Would.IsZero() != !tc.miss) {
				t.Fatalf("meets %v, would %q; want a miss %v naming the replicas", p.Meets, p.Would, tc.miss)
			}
			if tc.miss {
				auto, err := serve.PlanServing(a, s, o)
				if err != nil || !auto.Meets {
					t.Fatalf("auto replicas: %v, %v", err, auto.Reasons)
				}
				want := fmt.Sprintf("--replicas %d would meet them: %d GPUs in all", auto.Replicas, auto.GPUs)
				if p.Would.String() != want || auto.GPUs <= tc.gpus {
					t.Errorf("would %q, want %q", p.Would, want)
				}
			}
		})
	}
}
