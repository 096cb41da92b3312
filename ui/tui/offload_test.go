package tui

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// ZeRO-Offload survives file → answers → file under a ZeRO strategy, and
// is dropped when the answers change to a strategy that cannot offload.
func TestOffloadAnswersRoundTrip(t *testing.T) {
	cat := testCatalog(t)
	w := config.WorkloadAnswers{Settings: model.Settings{Task: model.TaskFinetune, GPUs: 8, Strategy: model.ZeRO2, Switches: model.Switches{OffloadOptimizer: true}}, Model: "llama-3.1-8b"}
	a := answersFromConfig(cat, &config.Config{Workload: w})
	if !a.Switches.OffloadOptimizer {
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

// The offload page shows only when training with a ZeRO strategy, and
// follows the strategy as it changes.
func TestOffloadPageShown(t *testing.T) {
	a := &answers{}
	w := &wizard{a: a}
	p := w.switchPages()[0]
	for _, tt := range []struct {
		task     model.Task
		strategy model.Strategy
		shown    bool
	}{
		{model.TaskFinetune, model.ZeRO2, true}, {model.TaskLoRA, model.ZeRO3, true}, {model.TaskFinetune, model.FSDP, false},
		{model.TaskTrain, model.DDP, false}, {model.TaskInference, model.ZeRO2, false},
	} {
		a.Task, a.Strategy = tt.task, tt.strategy
		if shown := !p.hide(); shown != tt.shown {
			t.Errorf("%s %s: page shown %v, want %v", tt.task, tt.strategy, shown, tt.shown)
		}
	}
}
