package advice

import (
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/internal/modeltest"
)

// a100 is the A100 80GB's datasheet figures (NVIDIA A100 Tensor Core GPU
// datasheet: 19.5 TFLOPS fp32, 156 tf32, 312 bf16/fp16 dense, 2,039 GB/s).
var a100 = &model.GPU{Key: "a100-80gb", Name: "A100 80GB", MemoryGiB: 80, ComputeCapability: "8.0",
	FP32TFLOPS: 19.5, TF32TFLOPS: 156, FP16TFLOPS: 312, BF16TFLOPS: 312, MemoryBandwidthGBps: 2039}

// TestTips checks the rules Tips ranks by, on workloads whose best change
// is known from the datasheet and the memory accounting.
func TestTips(t *testing.T) {
	tests := []struct {
		name  string
		w     model.Workload
		first string // the top tip's change starts with this
		// costAtLeast is the top tip's job-cost saving, %, at least: fp32
		// on CUDA cores (19.5 TFLOPS) against bf16 tensor cores (312) is
		// compute bound, so the time falls by far more than half.
		costAtLeast float64
	}{
		{"ResNet-50 in fp32: mixed precision first", model.Workload{Settings: model.Settings{Task: model.TaskTrain, Precision: model.FP32, MicroBatch: 256, ImageSize: 224, DatasetSamples: 1.28e6, Epochs: 1}, Model: modeltest.ResNet50},
			"train in mixed precision", 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tips := Tips(tt.w, a100, 3)
			if len(tips) == 0 {
				t.Fatal("no tips")
			}
			if !strings.HasPrefix(tips[0].Change, tt.first) {
				t.Errorf("first tip %q, want %q…", tips[0].Change, tt.first)
			}
			if got := tips[0].CostSavedPct(); got < tt.costAtLeast {
				t.Errorf("first tip saves %.1f%% of the job cost, want ≥ %.0f%%", got, tt.costAtLeast)
			}
			for i, tp := range tips {
				if !tp.Fits {
					t.Errorf("tip %q: the job fits, so must the change", tp.Change)
				}
				if tp.Workload.GPUs != max(tt.w.GPUs, 1) {
					t.Errorf("tip %q changes the GPU count to %d", tp.Change, tp.Workload.GPUs)
				}
				if tp.CostSavedPct() < TipMinCostPct {
					t.Errorf("tip %q saves %.1f%% cost (%.1f%% memory): the job fits, so a tip must save money", tp.Change, tp.CostSavedPct(), tp.MemorySavedPct())
				}
				if i > 0 && tp.CostSavedPct() > tips[i-1].CostSavedPct() {
					t.Errorf("tip %d saves more (%.1f%%) than tip %d (%.1f%%)", i, tp.CostSavedPct(), i-1, tips[i-1].CostSavedPct())
				}
			}
			if n := len(Tips(tt.w, a100, 1)); n != 1 {
				t.Errorf("n=1 gave %d tips", n)
			}
		})
	}
}

// TestTipsFittingJobSavesMoney: on a job that fits, a change that only
// saves memory is no saving. ResNet-50 at 256 × 224 px in amp-fp16 fits a
// V100 16GB with 4 GiB to spare; activation checkpointing cuts the memory
// by two thirds but the job's GPU-hours stay (±0%), so it must not be
// offered; neither may a chunked loss on a QLoRA job that fits an A100.
func TestTipsFittingJobSavesMoney(t *testing.T) {
	v100 := modeltest.V100
	for _, tc := range []struct {
		name string
		w    model.Workload
		g    *model.GPU
	}{
		{"ResNet-50 on V100", model.Workload{Settings: model.Settings{Task: model.TaskTrain, MicroBatch: 256, ImageSize: 224, DatasetSamples: 1.28e6, Epochs: 90}, Model: modeltest.ResNet50}, &v100},
		{"QLoRA 8B on A100", model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, MicroBatch: 4, SeqLen: 4096, DatasetTokens: 20e6}, Model: modeltest.Llama31_8B}, a100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.w
			w.Defaults()
			e, err := model.Compute(w, tc.g)
			if err != nil || !e.HasTime || e.Memory.Total() > model.UsableBytes(tc.g) {
				t.Fatalf("want a timed job that fits: %v", err)
			}
			for _, tp := range Tips(tc.w, tc.g, 10) {
				if tp.CostSavedPct() < TipMinCostPct {
					t.Errorf("tip %q saves %.1f%% of the job cost (%.0f%% memory): no saving on a job that fits", tp.Change, tp.CostSavedPct(), tp.MemorySavedPct())
				}
			}
		})
	}
}

// When nothing fits, changes that make it fit come first (FitAdvice's
// order), each cutting memory.
func TestTipsWhenNothingFits(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskLoRA, MicroBatch: 4, SeqLen: 4096}, Model: modeltest.Llama31_8B}
	tips := Tips(w, a100, 3)
	if len(tips) == 0 || !tips[0].Fits {
		t.Fatalf("LoRA 8B at 4 × 4096 on 80 GB: want a first tip that fits, got %+v", tips)
	}
	for i, tp := range tips {
		if tp.MemorySavedPct() <= 0 {
			t.Errorf("tip %q saves no memory", tp.Change)
		}
		if i > 0 && tp.Fits && !tips[i-1].Fits {
			t.Errorf("a fitting tip after one that does not fit")
		}
	}
}

// Half the LoRA rank halves the adapters: r × (d_in + d_out) weights per
// target (Hu et al., 2021, "LoRA", §4.1), so the trained parameters fall
// from 13.6M to 6.8M at rank 16 → 8 on q,k,v,o of Llama 3.1 8B.
func TestTipsLoRARank(t *testing.T) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskLoRA, LoRARank: 16, MicroBatch: 1, SeqLen: 512, Checkpointing: model.Bool(true)}, Model: modeltest.Llama31_8B}
	w.Defaults()
	base, err := model.Compute(w, a100)
	if err != nil {
		t.Fatal(err)
	}
	v := w
	v.LoRARank = 8
	half, err := model.Compute(v, a100)
	if err != nil {
		t.Fatal(err)
	}
	if got := half.TrainableParams * 2; got != base.TrainableParams {
		t.Errorf("rank 8 trains %v, rank 16 %v: want half", half.TrainableParams, base.TrainableParams)
	}
	// q: 4096→4096, k,v: 4096→1024, o: 4096→4096, 32 layers, r = 16:
	// 16 × 32 × ((4096+4096)×2 + (4096+1024)×2) = 13,631,488.
	if base.TrainableParams != 13631488 {
		t.Errorf("rank 16 trains %v, want 13,631,488", base.TrainableParams)
	}
}

// BenchmarkTips is the panel's cost per recompute: Tips on the default
// QLoRA journey (every candidate computed on the GPU).
func BenchmarkTips(b *testing.B) {
	w := model.Workload{Settings: model.Settings{Task: model.TaskQLoRA, MicroBatch: 4, SeqLen: 4096, DatasetTokens: 20e6}, Model: modeltest.Llama31_8B}
	for b.Loop() {
		Tips(w, a100, 2)
	}
}
