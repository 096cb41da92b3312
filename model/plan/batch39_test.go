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
	// The recipe's batch (Defaults: 1 × 16 on 1 GPU) moved to 8 GPUs: 1 × 2.
	asked := &model.Workload{Settings: model.Settings{Task: model.TaskLoRA, GPUs: 1}, Model: model.Architecture{Name: "m", Layers: 2, Hidden: 64, Heads: 4, Vocab: 100, Params: 1e6}}
	asked.Defaults()
	recipe, _ := asked.OnGPUs(8)
	if recipe.MicroBatch != 1 || recipe.GradAccum != 2 || recipe.BatchNote().IsZero() {
		t.Fatalf("recipe on 8 GPUs: %d × %d, note %q; want 1 × 2 and the recipe's note", recipe.MicroBatch, recipe.GradAccum, recipe.BatchNote())
	}
	if got := batchOnOffer(ph, asked, &recipe); !got.IsZero() {
		t.Errorf("recipe batch: %q, want nothing (its BatchNote says it)", got)
	}
}
