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

// With optimizer offload and an optimizer other than Adam's, the config
// names none: the Trainer's --optim, the optimizer the estimate priced,
// steps the CPU partition. An "optimizer" section would run DeepSpeed's
// CPU AdamW instead (12 bytes of host state per parameter, not SGD's or
// Adafactor's), and with --optim adafactor transformers refuses to start
// ("--adafactor was passed, but also found `optimizer` configured in the
// DeepSpeed config", integrations/deepspeed.py deepspeed_optim_sched).
// DeepSpeed then needs zero_force_ds_cpu_optimizer false, or it refuses a
// client optimizer with ZeRO-Offload ("You are using ZeRO-Offload with a
// client provided optimizer", deepspeed/runtime/engine.py,
// _configure_basic_optimizer; the key defaults to true,
// deepspeed/runtime/constants.py ZERO_FORCE_DS_CPU_OPTIMIZER_DEFAULT).
func TestDeepSpeedOffloadKeepsTheTrainersOptimizer(t *testing.T) {
	for _, tt := range []struct {
		opt       model.Optimizer
		optim     string // the Trainer's --optim
		dsAdamW   bool   // DeepSpeed's AdamW section
		forceFlag string // zero_force_ds_cpu_optimizer, "" for absent
	}{
		{model.AdamW, "adamw_torch", true, ""},
		{model.Adam, "adamw_torch", true, ""},
		{model.AdamWFused, "adamw_torch_fused", true, ""},
		{model.SGD, "sgd", false, "false"},
		{model.SGDMomentum, "sgd", false, "false"},
		{model.Adafactor, "adafactor", false, "false"},
		{model.AdamW8bit, "adamw_bnb_8bit", false, "false"},
		{model.PagedAdamW, "paged_adamw_32bit", false, "false"},
		{model.PagedAdamW8bit, "paged_adamw_8bit", false, "false"},
	} {
		w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 2048, GPUs: 8,
			Strategy: model.ZeRO2, Optimizer: tt.opt}, Model: llama8B}
		w.OffloadOptimizer = true
		p := plan(t, testCase{name: "offload " + string(tt.opt), w: w, instance: "p4de.24xlarge"}, launch.Options{})
		var ds struct {
			Optimizer *struct {
				Type string `json:"type"`
			} `json:"optimizer"`
			Force json.RawMessage `json:"zero_force_ds_cpu_optimizer"`
		}
		if err := json.Unmarshal(p.DeepSpeedConfig(), &ds); err != nil {
			t.Fatal(err)
		}
		if got := (ds.Optimizer != nil && ds.Optimizer.Type == "AdamW"); got != tt.dsAdamW {
			t.Errorf("%s: DeepSpeed AdamW section %v, want %v", tt.opt, got, tt.dsAdamW)
		}
		if got := string(ds.Force); got != tt.forceFlag {
			t.Errorf("%s: zero_force_ds_cpu_optimizer = %q, want %q", tt.opt, got, tt.forceFlag)
		}
		args := strings.Join(p.ScriptArgs, " ")
		if !strings.Contains(args, "--optim "+tt.optim+" ") {
			t.Errorf("%s: script args %q lack --optim %s", tt.opt, args, tt.optim)
		}
	}
}
