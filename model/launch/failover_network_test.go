package launch_test

import (
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// TestAlternativesWithinTimeRange: across nodes, an offer that trains
// slower than the slow end of the chosen offer's 90% time range is not
// the same job (a new user's walk: a no-fabric primeintellect VM, timed
// at 10 Gbps, was the first failover of 2-node EFA p5); the offers within
// it stay.
func TestAlternativesWithinTimeRange(t *testing.T) {
	cat, err := data.Load()
	if err != nil {
		t.Fatal(err)
	}
	m, err := cat.Model("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	on := true
	w := model.Workload{Model: *m, Settings: model.Settings{Task: model.TaskFinetune, Strategy: model.FSDP, GPUs: 16, MicroBatch: 1, Checkpointing: &on}}
	rec, err := model.Recommend(w, cat, model.Query{GPUs: []string{"h100-sxm"}, AllowMultiNode: true})
	if err != nil {
		t.Fatal(err)
	}
	var chosen *model.Offer
	slow, near := false, false
	for i := range rec.Offers {
		o := &rec.Offers[i]
		if o.Instance.Provider == "aws" && o.Instance.Type == "p5.48xlarge" && o.Instances == 2 && chosen == nil {
			chosen = o
		}
	}
	if chosen == nil {
		t.Fatal("no 2-node p5 offer in the ranking")
	}
	hi := chosen.Estimate.TimeCalibration().Hi
	for i := range rec.Offers {
		o := &rec.Offers[i]
		if o.Instances == 2 && o.Estimate.SamplesPerSecond*hi < chosen.Estimate.SamplesPerSecond {
			slow = true
		}
		if o.Instances == 2 && o.Estimate.SamplesPerSecond*hi >= chosen.Estimate.SamplesPerSecond && o != chosen {
			near = true
		}
	}
	if !slow || !near {
		t.Fatalf("the ranking needs 2-node offers past the range (%v) and within it (%v): the case proves nothing", slow, near)
	}
	alts := launch.Alternatives(w, cat, chosen, model.Query{})
	if len(alts) == 0 {
		t.Fatal("no alternatives")
	}
	for _, a := range alts {
		if a.Estimate.SamplesPerSecond*hi < chosen.Estimate.SamplesPerSecond {
			t.Errorf("%s/%s in %s: %.3g samples/s against %.3g, past the range's ×%.2f",
				a.Instance.Provider, a.Instance.Type, a.Region, a.Estimate.SamplesPerSecond, chosen.Estimate.SamplesPerSecond, hi)
		}
	}
}
