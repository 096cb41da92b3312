package data_test

import (
	"testing"

	"github.com/gpuplan/gpuplan/data"
	"github.com/gpuplan/gpuplan/model"
)

func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := data.Load(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecommendEmbedded(b *testing.B) {
	cat, err := data.Load()
	if err != nil {
		b.Fatal(err)
	}
	a, _ := cat.Model("llama-3.1-8b")
	w := model.Workload{Model: *a, Task: model.TaskQLoRA, MicroBatch: 2, SeqLen: 2048, DatasetTokens: 1e9}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := model.Recommend(w, cat, model.Query{AutoGPUs: true}); err != nil {
			b.Fatal(err)
		}
	}
}
