package tui

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// ZeRO-Offload survives file → answers → file under a ZeRO strategy, and
// is dropped when the answers change to a strategy that cannot offload.
func TestOffloadAnswersRoundTrip(t *testing.T) {
	cat := testCatalog(t)
	w := model.WorkloadAnswers{Settings: model.Settings{Task: model.TaskFinetune, GPUs: 8, Strategy: model.ZeRO2, OffloadOptimizer: true}, Model: "llama-3.1-8b"}
	a := answersFromConfig(cat, &model.Config{Workload: w})
	if !a.Offload {
		t.Fatal("offload_optimizer = true not in the answers")
	}
	c, err := a.config()
	if err != nil || !c.Workload.OffloadOptimizer {
		t.Fatalf("answers → file lost offload_optimizer (%v)", err)
	}
	a.Strategy = model.FSDP
	if c, err := a.config(); err != nil || c.Workload.OffloadOptimizer {
		t.Errorf("fsdp writes offload_optimizer = %v (%v)", c.Workload.OffloadOptimizer, err)
	}
}
