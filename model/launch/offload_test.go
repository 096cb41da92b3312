package launch_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// The offload switches reach the DeepSpeed config as DeepSpeed's reference
// spells them (DeepSpeedZeroOffloadOptimizerConfig, ...ParamConfig):
// zero_optimization.offload_optimizer / offload_param with device "cpu";
// without the switch the key is absent.
func TestDeepSpeedOffload(t *testing.T) {
	for _, tt := range []struct {
		key      string
		strategy model.Strategy
		on       model.Switches
	}{
		{"offload_optimizer", model.ZeRO2, model.Switches{OffloadOptimizer: true}},
		{"offload_param", model.ZeRO3, model.Switches{OffloadParams: true}},
	} {
		for _, on := range []bool{false, true} {
			w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 2048, GPUs: 8,
				Strategy: tt.strategy}, Model: llama8B}
			if on {
				w.Switches = tt.on
			}
			p := plan(t, testCase{name: "offload", w: w, instance: "p4de.24xlarge"}, launch.Options{})
			var ds struct {
				ZeRO map[string]json.RawMessage `json:"zero_optimization"`
			}
			if err := json.Unmarshal(p.DeepSpeedConfig(), &ds); err != nil {
				t.Fatal(err)
			}
			stage, got := string(ds.ZeRO["stage"]), string(ds.ZeRO[tt.key])
			switch {
			case stage != strconv.Itoa(tt.strategy.ZeROStage()):
				t.Errorf("%s %v: stage %s, want %d", tt.key, on, stage, tt.strategy.ZeROStage())
			case on && strings.Join(strings.Fields(got), "") != `{"device":"cpu"}`:
				t.Errorf("%s on: zero_optimization.%s = %s, want device cpu", tt.key, tt.key, got)
			case !on && got != "":
				t.Errorf("%s off: zero_optimization.%s = %s, want none", tt.key, tt.key, got)
			}
		}
	}
}

// With optimizer offload the config names DeepSpeed's optimizer (AdamW,
// its values "auto" for the Trainer to fill), so DeepSpeed builds its CPU
// Adam instead of refusing the Trainer's torch AdamW; without offload the
// Trainer's optimizer stays.
func TestDeepSpeedOffloadOptimizerSection(t *testing.T) {
	for _, on := range []bool{false, true} {
		w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 2048, GPUs: 8,
			Strategy: model.ZeRO3}, Model: llama8B}
		w.OffloadOptimizer = on
		p := plan(t, testCase{name: "offload", w: w, instance: "p4de.24xlarge"}, launch.Options{})
		var ds struct {
			Optimizer *struct {
				Type   string            `json:"type"`
				Params map[string]string `json:"params"`
			} `json:"optimizer"`
		}
		if err := json.Unmarshal(p.DeepSpeedConfig(), &ds); err != nil {
			t.Fatal(err)
		}
		switch {
		case on && (ds.Optimizer == nil || ds.Optimizer.Type != "AdamW" || ds.Optimizer.Params["lr"] != "auto"):
			t.Errorf("offload on: optimizer section %+v, want AdamW with auto params", ds.Optimizer)
		case !on && ds.Optimizer != nil:
			t.Errorf("offload off: optimizer section %+v, want none (the Trainer's)", ds.Optimizer)
		}
	}
}
