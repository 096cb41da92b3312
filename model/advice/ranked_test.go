package advice

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// TestFitAdviceRankedKeepsBatchPerGPU: for a search that picks the GPU
// count (recommend), a batch asked per GPU stays per GPU in the changes
// that move the micro-batch, flagged --batch-size alone, so a re-run
// ranks each offer's GPUs at it; estimate's advice (FitAdviceNode) keeps
// the global batch with --grad-accum on the GPUs it was given. Llama 3.1
// 8B full fine-tune at 4 × 4096 per GPU, FSDP over 8 L4 (21.4 GiB
// usable): the savers combined fit at a smaller micro-batch.
func TestFitAdviceRankedKeepsBatchPerGPU(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 4, SeqLen: 4096, GPUs: 8, Strategy: model.FSDP}, Model: modeltest.Llama31_8B}
	capBytes := 21.4 * model.GiB
	for _, tt := range []struct {
		name   string
		advice []Advice
		perGPU bool // the micro-batch lines stay per GPU, --batch-size alone
	}{
		{"recommend (FitAdviceRanked): per GPU", FitAdviceRanked(w, nil, capBytes, 8), true},
		{"estimate (FitAdviceNode): the same global batch of 32", FitAdviceNode(w, capBytes, 8), false},
	} {
		micro := 0
		for _, a := range tt.advice {
			v := a.Workload
			if v.GPUs != w.GPUs || v.Strategy != w.Strategy || v.MicroBatch == w.MicroBatch {
				continue // a sharding, or the batch kept
			}
			micro++
			perGPU := strings.Contains(a.Change, "per GPU") && !strings.Contains(a.Change, "--grad-accum") && v.BatchPerGPU && v.GradAccum == 1
			kept := strings.Contains(a.Change, "--grad-accum") && v.GlobalBatch() == 4*8
			if perGPU != tt.perGPU || !tt.perGPU && !kept {
				t.Errorf("%s: %q: micro-batch %d × accumulation %d per GPU %v (global batch %d)", tt.name, a.Change, v.MicroBatch, v.GradAccum, v.BatchPerGPU, v.GlobalBatch())
			}
		}
		if micro == 0 || !strings.HasPrefix(tt.advice[0].Change, "combine ") {
			t.Errorf("%s: want a combination first and a line that moves the micro-batch: %+v", tt.name, tt.advice)
		}
	}
}
