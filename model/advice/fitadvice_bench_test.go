package advice

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// BenchmarkFitAdviceNoFit is the configurator's recompute when nothing
// fits (ui/tui panel: FitAdvice on the largest GPU), where combine tries
// the sets of savers: Llama 3.1 8B full fine-tune on one 24 GB GPU.
func BenchmarkFitAdviceNoFit(b *testing.B) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 4, SeqLen: 4096}, Model: modeltest.Llama31_8B}
	for b.Loop() {
		FitAdvice(w, 21.37*model.GiB)
	}
}

// BenchmarkFitAdviceShardCombine is the recompute where nothing fits
// within a node but sharding with the savers together (shardCombine):
// Llama 3.1 70B full fine-tune on 4 GPUs of 80 GB, where the search
// tries the sets of savers at each width.
func BenchmarkFitAdviceShardCombine(b *testing.B) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 1, SeqLen: 4096, GPUs: 4}, Model: llama31_70B}
	for b.Loop() {
		FitAdvice(w, 75.29*model.GiB)
	}
}
