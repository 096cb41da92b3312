package data_test

import (
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

// BenchmarkRecommendMultiNode is one recommend of a 16-GPU FSDP job over
// the embedded catalog with multi-node allowed: every instance type's
// host retimes the estimate (model.HostOf, Estimate.Retime).
func BenchmarkRecommendMultiNode(b *testing.B) {
	cat, err := data.Load()
	if err != nil {
		b.Fatal(err)
	}
	a, _ := cat.Model("llama-3.1-8b")
	w := model.Workload{
		Settings: model.Settings{Task: model.TaskFinetune, MicroBatch: 2, SeqLen: 2048, GPUs: 16, Strategy: model.FSDP, DatasetTokens: 1e9},
		Model:    *a,
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := model.Recommend(w, cat, model.Query{AllowMultiNode: true}); err != nil {
			b.Fatal(err)
		}
	}
}
