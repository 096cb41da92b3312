package launch_test

import (
	"encoding/json"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/launch"
)

// ZeRO-Offload reaches the DeepSpeed config as DeepSpeed's reference spells
// it: zero_optimization.offload_optimizer.device = "cpu"; without it the
// key is absent.
func TestDeepSpeedOffloadOptimizer(t *testing.T) {
	for _, offload := range []bool{false, true} {
		w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 2048, GPUs: 8,
			Strategy: model.ZeRO2, Switches: model.Switches{OffloadOptimizer: offload}}, Model: llama8B}
		p := plan(t, testCase{name: "offload", w: w, instance: "p4de.24xlarge"}, launch.Options{})
		var ds struct {
			ZeRO struct {
				Stage   int `json:"stage"`
				Offload *struct {
					Device string `json:"device"`
				} `json:"offload_optimizer"`
			} `json:"zero_optimization"`
		}
		if err := json.Unmarshal(p.DeepSpeedConfig(), &ds); err != nil {
			t.Fatal(err)
		}
		switch {
		case ds.ZeRO.Stage != 2:
			t.Errorf("offload %v: stage %d, want 2", offload, ds.ZeRO.Stage)
		case offload && (ds.ZeRO.Offload == nil || ds.ZeRO.Offload.Device != "cpu"):
			t.Errorf("offload: zero_optimization.offload_optimizer = %+v, want device cpu", ds.ZeRO.Offload)
		case !offload && ds.ZeRO.Offload != nil:
			t.Errorf("no offload: zero_optimization.offload_optimizer = %+v, want none", ds.ZeRO.Offload)
		}
	}
}

// ZeRO-3 parameter offload reaches the DeepSpeed config as
// zero_optimization.offload_param.device = "cpu" (DeepSpeed's
// DeepSpeedZeroOffloadParamConfig); without it the key is absent.
func TestDeepSpeedOffloadParams(t *testing.T) {
	for _, offload := range []bool{false, true} {
		w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 2048, GPUs: 8,
			Strategy: model.ZeRO3, Switches: model.Switches{OffloadParams: offload}}, Model: llama8B}
		p := plan(t, testCase{name: "offload", w: w, instance: "p4de.24xlarge"}, launch.Options{})
		var ds struct {
			ZeRO struct {
				Stage   int `json:"stage"`
				Offload *struct {
					Device string `json:"device"`
				} `json:"offload_param"`
			} `json:"zero_optimization"`
		}
		if err := json.Unmarshal(p.DeepSpeedConfig(), &ds); err != nil {
			t.Fatal(err)
		}
		switch {
		case ds.ZeRO.Stage != 3:
			t.Errorf("offload %v: stage %d, want 3", offload, ds.ZeRO.Stage)
		case offload && (ds.ZeRO.Offload == nil || ds.ZeRO.Offload.Device != "cpu"):
			t.Errorf("offload: zero_optimization.offload_param = %+v, want device cpu", ds.ZeRO.Offload)
		case !offload && ds.ZeRO.Offload != nil:
			t.Errorf("no offload: zero_optimization.offload_param = %+v, want none", ds.ZeRO.Offload)
		}
	}
}
