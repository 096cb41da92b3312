package model

import (
	"errors"
	"testing"
)

// ZeRO-Offload (Settings.OffloadOptimizer) moves the optimizer states off
// the GPU. Hand-worked for AdamW under the deepspeed recipe: 4 B fp32
// master + 8 B moments = 12 B per trainable parameter, sharded over the
// data-parallel ranks for ZeRO ≥ 1 ("ZeRO", Rajbhandari et al., 2020,
// §3.1, K = 12); the step's fp32 gradient partition, 4 B per parameter
// (stage_1_and_2.py step()), is on the CPU too.
func TestOffloadOptimizer(t *testing.T) {
	tests := []struct {
		name     string
		strategy Strategy
		gpus     int
		host     float64 // bytes per GPU in host RAM, per parameter
	}{
		{"zero2 on 8 GPUs", ZeRO2, 8, (12 + 4) / 8.0},
		{"zero1 on 4 GPUs", ZeRO1, 4, (12 + 4) / 4.0},
		{"zero2 on one GPU", ZeRO2, 1, 12 + 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := Workload{Settings: Settings{Task: TaskFinetune, MicroBatch: 1, SeqLen: 512, GPUs: tt.gpus, Strategy: tt.strategy}, Model: llama31_8B}
			base, off := withSwitches(t, w, Switches{OffloadOptimizer: true})
			p := base.Params
			if got, want := base.States.OptimizerStates, 12*p/float64(tt.gpus); !near(got, want, 1e-9) {
				t.Fatalf("without offload: optimizer states %.4g B, want %.4g", got, want)
			}
			if off.States.OptimizerStates != 0 || off.Memory.OptimizerStates != 0 {
				t.Errorf("offloaded optimizer states on the GPU: %.4g B", off.Memory.OptimizerStates)
			}
			if got, want := off.States.HostOffload, tt.host*p; !near(got, want, 1e-9) {
				t.Errorf("host RAM %.4g B per GPU, want %.4g", got, want)
			}
			if off.Memory.Total() >= base.Memory.Total() {
				t.Errorf("GPU total %.4g B with offload, not below %.4g", off.Memory.Total(), base.Memory.Total())
			}
		})
	}
}

// withSwitches computes w as it is and with switches on.
func withSwitches(t *testing.T, w Workload, on Switches) (base, switched Estimate) {
	t.Helper()
	base, err := Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Switches = on
	switched, err = Compute(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	return base, switched
}

// Offload is DeepSpeed's, for training under ZeRO: the optimizer's with
// stages 1–3 ("Valid with stage 1, 2, and 3"), the parameters' with stage 3
// ("Valid only with stage 3"), or torch FSDP's parameter offload (which
// has no optimizer-only form: TestFSDPOffloadRules); anything else is a
// FieldError naming the key.
func TestOffloadNeedsZeRO(t *testing.T) {
	for _, tt := range []struct {
		name, field string
		s           Settings
	}{
		{"fsdp", "offload_optimizer", Settings{Task: TaskFinetune, GPUs: 8, Strategy: FSDP, Switches: Switches{OffloadOptimizer: true}}},
		{"ddp", "offload_optimizer", Settings{Task: TaskFinetune, GPUs: 8, Strategy: DDP, Switches: Switches{OffloadOptimizer: true}}},
		{"single", "offload_optimizer", Settings{Task: TaskFinetune, Switches: Switches{OffloadOptimizer: true}}},
		{"inference", "offload_optimizer", Settings{Task: TaskInference, Switches: Switches{OffloadOptimizer: true}}},
		{"params zero2", "offload_params", Settings{Task: TaskFinetune, GPUs: 8, Strategy: ZeRO2, Switches: Switches{OffloadParams: true}}},
		{"params single", "offload_params", Settings{Task: TaskFinetune, Switches: Switches{OffloadParams: true}}},
		{"params inference", "offload_params", Settings{Task: TaskInference, Switches: Switches{OffloadParams: true}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := Workload{Settings: tt.s, Model: llama31_8B}
			w.Defaults()
			var fe *FieldError
			if err := w.Validate(); !errors.As(err, &fe) || fe.Field != tt.field {
				t.Errorf("Validate() = %v, want a FieldError on %s", err, tt.field)
			}
		})
	}
}
