package report

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestWorkloadJSONGlobalBatch: the workload's JSON gives the global batch
// asked and the one run when they differ (the QLoRA recipe's 16 on 3
// GPUs runs 1 × 1 × 3 = 3), and neither when they agree (4 GPUs: 1 × 4 × 4).
func TestWorkloadJSONGlobalBatch(t *testing.T) {
	arch := model.Architecture{Family: model.FamilyDecoder, Layers: 4, Hidden: 256, Heads: 4, KVHeads: 4, FFN: 1024, Vocab: 1000}
	for _, tt := range []struct {
		gpus          int
		asked, global int
	}{{3, 16, 3}, {4, 0, 0}} {
		w := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, GPUs: tt.gpus}, Model: arch}
		w.Defaults()
		j := NewWorkloadJSON(&w)
		if j.GlobalBatchAsked != tt.asked || j.GlobalBatch != tt.global {
			t.Errorf("%d GPUs: global_batch_asked %d, global_batch %d; want %d, %d", tt.gpus, j.GlobalBatchAsked, j.GlobalBatch, tt.asked, tt.global)
		}
	}
}
