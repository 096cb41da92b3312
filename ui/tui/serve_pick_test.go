package tui

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/market"
)

// TestServingHeldToPick: a market pick of an 8-GPU row holds a serving
// request to that many GPUs on one node, as it holds a training job
// (docs/configurator.md: "on its GPU count (one GPU, or that many on one
// node)"), and as estimate --gpu G --gpus 8 plans it: every plan the
// panel ranks rents one 8-GPU instance of the pick's GPU (new-user walk:
// the header said "8× NVIDIA H100 SXM5 80GB on primeintellect in FI, IS
// only" above a best offer of a 1-GPU type on 2 nodes). A 1-GPU pick
// holds one GPU.
func TestServingHeldToPick(t *testing.T) {
	cat := embeddedCatalog(t)
	for _, n := range []int{8, 1} {
		var in *model.Instance
		for i := range cat.Instances {
			c := &cat.Instances[i]
			if c.Provider == "primeintellect" && c.GPU == "h100-sxm" && c.GPUCount == n && c.Offered() && len(c.Prices) > 0 {
				in = c
				break
			}
		}
		if in == nil {
			t.Fatalf("no primeintellect %d×h100-sxm in the catalog", n)
		}
		g, err := cat.GPU(in.GPU)
		if err != nil {
			t.Fatal(err)
		}
		m := start(t, newTestApp(t, cat, Options{}), size(120, 40))
		a := m.a
		a.Task, a.Model = model.TaskInference, "qwen3-8b"
		a.reconcile(cat, nil)
		a.limitTo(&market.Row{GPU: g, Instance: in, Regions: []string{in.Prices[0].Region}, Pricing: model.OnDemand})
		a.reconcile(cat, nil)
		m.recompute()
		meets := 0
		for i := range m.res.serve {
			p := &m.res.serve[i]
			if !p.Meets {
				continue
			}
			meets++
			if p.Offer.GPUsPerNode != n || p.Nodes != 1 || p.GPUs != n {
				t.Errorf("%d-GPU pick: %s ranked on %d GPUs per node, %d nodes, %d GPUs; want one node of %d", n, p.Offer.Name, p.Offer.GPUsPerNode, p.Nodes, p.GPUs, n)
			}
		}
		if meets == 0 {
			t.Errorf("%d-GPU pick: no plan meets the targets:\n%s", n, screenText(m))
		}
		if b := m.res.best(); b == nil || b.Instance.GPUCount != n {
			t.Errorf("%d-GPU pick: the best offer %v is not a %d-GPU host", n, b, n)
		}
	}
}
