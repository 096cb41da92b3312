package launch_test

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// Alternatives ranks the same GPU, GPU count and pricing as the chosen
// offer, leaves the chosen one out, and keeps the ranking's order; the
// plan's candidates are then taken from it in that order.
func TestAlternatives(t *testing.T) {
	for _, tt := range []struct {
		name          string
		provider, typ string
		nodes         int
		pricing       model.Pricing
	}{
		{"1 × p5 on spot", "aws", "p5.48xlarge", 1, model.Spot},
		{"2 × p5 on demand: several nodes allowed", "aws", "p5.48xlarge", 2, model.OnDemand},
		{"lambda 8× H100 on demand", "lambda", "gpu_8x_h100_sxm5", 1, model.OnDemand},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cat, o := catalogOffer(t, tt.provider, tt.typ, tt.nodes, tt.pricing)
			alts := launch.Alternatives(o.Estimate.Workload, cat, o, model.Query{})
			if len(alts) == 0 {
				t.Fatal("no alternatives: the test proves nothing")
			}
			for i, a := range alts {
				if a.Instance.Provider == o.Instance.Provider && a.Instance.Type == o.Instance.Type && a.Region == o.Region {
					t.Errorf("alternative %d is the chosen offer", i)
				}
				if a.GPU.Key != o.GPU.Key || a.GPUs != o.GPUs || a.Pricing != o.Pricing {
					t.Errorf("alternative %d: %d × %s %s, want %d × %s %s", i, a.GPUs, a.GPU.Key, a.Pricing, o.GPUs, o.GPU.Key, o.Pricing)
				}
				if a.Instances > 1 && tt.nodes == 1 {
					t.Errorf("alternative %d spans %d nodes for a one-node offer", i, a.Instances)
				}
			}
			p, err := launch.NewPlan(o.Estimate.Workload, o, launch.Options{Alternatives: alts})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Candidates) == 0 || len(p.Candidates) > 5 {
				t.Errorf("%d candidates from %d alternatives, want 1–5", len(p.Candidates), len(alts))
			}
		})
	}
	if a := launch.Alternatives(model.Workload{}, nil, nil, model.Query{}); a != nil {
		t.Errorf("no offer chosen: %d alternatives, want none", len(a))
	}
}
