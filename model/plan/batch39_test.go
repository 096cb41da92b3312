package plan

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestBatchOnOffer: how the answers' batch runs on the offer's GPUs is
// said once, by JobOnOffer's note, for plan, estimate --phase and export
// --phase alike (walk38): the accumulation recomputed to keep the global
// batch, or a global batch the GPUs cannot share running larger; nothing
// when nothing changed, for serving, or when the adapter recipe's note
// says it already. Hand-worked: 2 × 8 × 1 GPU = 16 = 2 × 1 × 8 GPUs; 1 ×
// 4 asked on 8 GPUs runs 1 × 4 × 8 = 32.
func TestBatchOnOffer(t *testing.T) {
	ph := &Phase{Name: "train"}
	train := model.Settings{Task: model.TaskFinetune}
	wl := func(s model.Settings, micro, accum, gpus, asked int) *model.Workload {
		s.MicroBatch, s.GradAccum, s.GPUs = micro, accum, gpus
		w := &model.Workload{Settings: s, AskedGlobalBatch: asked}
		return w
	}
	for _, tt := range []struct {
		name string
		a, w *model.Workload
		want string
	}{
		{"kept", wl(train, 2, 8, 1, 0), wl(train, 2, 1, 8, 0),
			`phase "train": the answers' micro-batch 2 × gradient accumulation 8 on 1 GPU is micro-batch 2 × accumulation 1 on the offer's 8 GPUs, the same global batch of 16`},
		{"unshared", wl(train, 1, 4, 1, 0), wl(train, 1, 4, 8, 4),
			`phase "train": global batch: asked 4, runs 32 = micro-batch 1 × gradient accumulation 4 × 8 data-parallel GPUs (they cannot share 4 in whole samples)`},
		{"same GPUs", wl(train, 2, 8, 8, 0), wl(train, 2, 8, 8, 0), ""},
		{"serving", wl(model.Settings{Task: model.TaskInference}, 1, 1, 1, 0), wl(model.Settings{Task: model.TaskInference}, 1, 1, 8, 0), ""},
	} {
		if got := batchOnOffer(ph, tt.a, tt.w).String(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	recipe := wl(model.Settings{Task: model.TaskLoRA}, 1, 2, 8, 0)
	recipe.BatchNote = model.Msg("batch: the LoRA/QLoRA recipe's …")
	if got := batchOnOffer(ph, wl(model.Settings{Task: model.TaskLoRA}, 1, 16, 1, 0), recipe); !got.IsZero() {
		t.Errorf("recipe batch: %q, want nothing (its BatchNote says it)", got)
	}
}
