package tui

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/config"
)

// The switch questions write a switch only where it is asked: parameter
// offload with zero3 (DeepSpeed) or fsdp (torch FSDP CPUOffload), never
// with ddp; activation offload only with checkpointing on a model with
// attention (it moves each transformer block's checkpointed input).
func TestSwitchQuestionsWritten(t *testing.T) {
	for _, tt := range []struct {
		name        string
		strategy    model.Strategy
		ckpt, noAtt bool
		on          model.Switches
		want        model.Switches
	}{
		{"fsdp params", model.FSDP, false, false, model.Switches{OffloadParams: true}, model.Switches{OffloadParams: true}},
		{"zero3 params", model.ZeRO3, false, false, model.Switches{OffloadParams: true}, model.Switches{OffloadParams: true}},
		{"ddp params", model.DDP, false, false, model.Switches{OffloadParams: true}, model.Switches{}},
		{"activations with checkpointing", model.DDP, true, false, model.Switches{OffloadActivations: true}, model.Switches{OffloadActivations: true}},
		{"activations without checkpointing", model.DDP, false, false, model.Switches{OffloadActivations: true}, model.Switches{}},
		{"activations on a CNN", model.DDP, true, true, model.Switches{OffloadActivations: true}, model.Switches{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := &answers{Task: model.TaskFinetune, Strategy: tt.strategy, Checkpointing: tt.ckpt, Switches: tt.on}
			a.fill.noAttention = tt.noAtt
			var w config.WorkloadAnswers
			w.Task, w.Strategy, w.Checkpointing = model.TaskFinetune, tt.strategy, model.Bool(tt.ckpt)
			a.estimatorConfig(&w)
			if w.Switches != tt.want {
				t.Errorf("switches written %+v, want %+v", w.Switches, tt.want)
			}
			shown := 0
			for _, q := range switchQuestions {
				if *q.field(&tt.on) && q.shown(a.Task, a.Strategy, a.Checkpointing && !a.fill.noAttention) {
					shown++
				}
			}
			if want := map[bool]int{true: 1, false: 0}[tt.want != model.Switches{}]; shown != want {
				t.Errorf("%d pages ask for the switch, want %d", shown, want)
			}
		})
	}
}
