package report

import (
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// TestDescribeOnGPU: the header of an estimate on a GPU names the
// precision it runs and the attention kernel it takes there — amp-bf16
// runs as amp-fp16 on a V100 (compute capability 7.0: no bf16) and fused
// attention is PyTorch's memory-efficient SDPA kernel before 8.0 — with
// the precision asked beside it; on an A100, and without a GPU, the
// header is as asked (a new user's walk: "amp-bf16 · flash attention"
// above a V100 estimate timed at amp-fp16).
func TestDescribeOnGPU(t *testing.T) {
	v100 := &model.GPU{Key: "v100", Name: "V100", Vendor: "nvidia", ComputeCapability: "7.0", FP16TFLOPS: 125, FP32TFLOPS: 15.7}
	a100 := &model.GPU{Key: "a100", Name: "A100", Vendor: "nvidia", ComputeCapability: "8.0", FP16TFLOPS: 312, BF16TFLOPS: 312, TF32TFLOPS: 156, FP32TFLOPS: 19.5}
	flash := true
	w := model.Workload{Model: model.Architecture{Family: model.FamilyDecoder, Layers: 2, Hidden: 64, Heads: 4, FFN: 256, Vocab: 100},
		Settings: model.Settings{Task: model.TaskFinetune, Precision: model.AMPBF16, Optimizer: model.AdamW, MicroBatch: 1, SeqLen: 128, GPUs: 1, FlashAttention: &flash, Framework: model.PyTorch}}
	for _, tc := range []struct {
		name        string
		g           *model.GPU
		work, shape string
	}{
		{"v100", v100, "finetune · amp-fp16 (amp-bf16 asked) · adamw · 1 GPU · pytorch", "batch 1 × 128 tokens · memory-efficient attention"},
		{"a100", a100, "finetune · amp-bf16 · adamw · 1 GPU · pytorch", "batch 1 × 128 tokens · flash attention"},
		{"no GPU", nil, "finetune · amp-bf16 · adamw · 1 GPU · pytorch", "batch 1 × 128 tokens · flash attention"},
	} {
		if got := DescribeWorkloadOn(nil, &w, tc.g); got != tc.work {
			t.Errorf("%s: workload %q, want %q", tc.name, got, tc.work)
		}
		if got := DescribeShapeOn(nil, &w, tc.g); got != tc.shape {
			t.Errorf("%s: shape %q, want %q", tc.name, got, tc.shape)
		}
	}
}
