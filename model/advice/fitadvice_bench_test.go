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
