package serve

import (
	"math"
	"testing"

	"github.com/gpuplan/gpuplan/model"
)

// GPUs as data/catalog/gpus.toml has them, for the MXFP4 kernel vLLM
// picks: by compute capability on NVIDIA, by vendor on AMD.
var (
	mxA100  = &model.GPU{Key: "a100-80gb", Vendor: "nvidia", ComputeCapability: "8.0"}
	mxL40S  = &model.GPU{Key: "l40s", Vendor: "nvidia", ComputeCapability: "8.9"}
	mxH100  = &model.GPU{Key: "h100-sxm", Vendor: "nvidia", ComputeCapability: "9.0"}
	mxB200  = &model.GPU{Key: "b200", Vendor: "nvidia", ComputeCapability: "10.0"}
	mxB300  = &model.GPU{Key: "b300", Vendor: "nvidia", ComputeCapability: "10.3"}
	mx5090  = &model.GPU{Key: "rtx-5090", Vendor: "nvidia", ComputeCapability: "12.0"}
	mxMI300 = &model.GPU{Key: "mi300x", Vendor: "amd"}
)

// TestMXFP4KernelOn: triton_kernels on 9.0 up to but not including 11.0,
// FlashInfer TRT-LLM on the SM100 family (10.x) before it, Marlin on
// Ampere, Ada and 12.x, ROCm's own on AMD (select_mxfp4_moe_backend).
func TestMXFP4KernelOn(t *testing.T) {
	for _, tt := range []struct {
		g    *model.GPU
		want mxfp4Kernel
	}{
		{mxA100, mxfp4Marlin},
		{mxL40S, mxfp4Marlin},
		{mxH100, mxfp4Triton},
		{mxB200, mxfp4TRTLLM},
		{mxB300, mxfp4TRTLLM},
		{mx5090, mxfp4Marlin},
		{mxMI300, mxfp4ROCm},
		{&model.GPU{Key: "unknown"}, mxfp4Marlin},
	} {
		if got := mxfp4KernelOn(tt.g); got != tt.want {
			t.Errorf("mxfp4KernelOn(%s) = %d, want %d", tt.g.Key, got, tt.want)
		}
	}
}

// TestMXFP4ExpertBytes: one gpt-oss expert (hidden 2880, intermediate
// 2880, gate and up fused in w13, biases) as vLLM holds it, by hand. The
// checkpoint's: 3 × 2880 × 2880 = 24,883,200 weights × (0.5 + 1/32) =
// 13,219,200 B, plus (2 × 2880 + 2880) bf16 biases = 17,280 B.
func TestMXFP4ExpertBytes(t *testing.T) {
	for _, tt := range []struct {
		name string
		k    mxfp4Kernel
		tp   int
		bias bool
		want float64
	}{
		// f 2880 → 2944 (128), h 2880 → 3072 (256): 3 × 2944 × 3072 =
		// 27,131,904 × 17/32 = 14,413,824; biases (5888 + 3072) × 2 B = 17,920.
		{"Marlin, TP 1", mxfp4Marlin, 1, true, 14413824 + 17920},
		{"Marlin, TP 1, no biases", mxfp4Marlin, 1, false, 14413824},
		// f/2 = 1440 → 1536: 3 × 1536 × 3072 = 14,155,776 × 17/32 =
		// 7,520,256; biases (3072 + 3072) × 2 = 12,288.
		{"Marlin, TP 2", mxfp4Marlin, 2, true, 7520256 + 12288},
		// f and h → 3072 (256): 3 × 3072 × 3072 = 28,311,552 × 17/32 =
		// 15,040,512; fp32 biases (6144 + 3072) × 4 = 36,864.
		{"TRT-LLM, TP 1", mxfp4TRTLLM, 1, true, 15040512 + 36864},
		// f/8 = 360 → 512: 3 × 512 × 3072 = 4,718,592 × 17/32 = 2,506,752;
		// biases (1024 + 3072) × 4 = 16,384.
		{"TRT-LLM, TP 8", mxfp4TRTLLM, 8, true, 2506752 + 16384},
		{"ROCm, TP 1: as TRT-LLM", mxfp4ROCm, 1, true, 15040512 + 36864},
		// f 2880 is a multiple of 64, h stays 2880. Values: w13's storage
		// 1440 (h/2) → 1472 × 5760 = 8,478,720; w2's 1440 (f/2) → 1472 ×
		// 2880 = 4,239,360. Scales: w13 5760 → 5888 (256) × 90 = 529,920;
		// w2 2880 → 3072 × 90 = 276,480. fp32 biases (5760 + 2880) × 4 = 34,560.
		{"Triton, TP 1", mxfp4Triton, 1, true, 8478720 + 4239360 + 529920 + 276480 + 34560},
		// f/2 = 1440 → 1472 (64). Values: 1440 → 1472 × 2944 = 4,333,568;
		// 736 → 768 × 2880 = 2,211,840. Scales: 2944 → 3072 × 90 = 276,480;
		// 2880 → 3072 × 46 = 141,312. Biases (2944 + 2880) × 4 = 23,296.
		{"Triton, TP 2", mxfp4Triton, 2, true, 4333568 + 2211840 + 276480 + 141312 + 23296},
	} {
		if got := mxfp4ExpertBytes(tt.k, 2880, 2880, tt.tp, true, tt.bias); got != tt.want {
			t.Errorf("%s: mxfp4ExpertBytes = %.0f B, want %.0f B", tt.name, got, tt.want)
		}
	}
}

// gptOss is gpt-oss-120b (36 layers, 128 experts) or gpt-oss-20b (24,
// 32) as data/catalog/models.toml has them: 116,829,156,672 and
// 20,914,757,184 parameters.
func gptOss(layers, experts int, extra float64) *model.Architecture {
	return &model.Architecture{Family: model.FamilyDecoder, Layers: layers, Hidden: 2880, Heads: 64, KVHeads: 8, HeadDim: 64,
		FFN: 2880, GatedMLP: true, FusedGateUp: true, Vocab: 201088, Norm: model.RMSNorm, LinearBias: true,
		Experts: experts, ExpertsPerToken: 4, ExtraParams: extra}
}

// TestWeightBytesOnGptOss: the weights one GPU holds at TP 1, by hand:
// the parameters other than the experts' weights and biases in bf16 —
// gpt-oss-120b 116,829,156,672 − 114,661,785,600 − 4608 × 8640 =
// 2,127,557,952 (4,255,115,904 B), gpt-oss-20b 20,914,757,184 −
// 19,110,297,600 − 768 × 8640 = 1,797,824,064 (3,595,648,128 B) — plus
// 4608 and 768 experts (layers × experts) at mxfp4ExpertBytes.
func TestWeightBytesOnGptOss(t *testing.T) {
	big, small := gptOss(36, 128, 6912), gptOss(24, 32, 2304)
	if big.ParamCount() != 116829156672 || small.ParamCount() != 20914757184 {
		t.Fatalf("parameters %.0f and %.0f, want the catalog's", big.ParamCount(), small.ParamCount())
	}
	const marlin, triton, trtllm = 14431744.0, 13559040.0, 15077376.0 // TestMXFP4ExpertBytes, TP 1
	for _, tt := range []struct {
		name         string
		a            *model.Architecture
		g            *model.GPU
		rest, expert float64 // bf16 bytes of the rest; one expert's bytes
	}{
		{"120b on A100 (Marlin): 65.90 GiB", big, mxA100, 4255115904, marlin},
		{"120b on L40S (Marlin)", big, mxL40S, 4255115904, marlin},
		{"120b on H100 (Triton): 62.15 GiB", big, mxH100, 4255115904, triton},
		{"120b on B200 (TRT-LLM): 68.67 GiB", big, mxB200, 4255115904, trtllm},
		{"20b on A100 (Marlin): 13.67 GiB", small, mxA100, 3595648128, marlin},
		{"20b on H100 (Triton): 13.05 GiB", small, mxH100, 3595648128, triton},
		{"20b on B200 (TRT-LLM): 14.13 GiB", small, mxB200, 3595648128, trtllm},
	} {
		experts := float64(tt.a.Layers*tt.a.Experts) * tt.expert
		got, routed := weightBytesOn(tt.a, WeightMXFP4, 2, tt.g, 1, 1)
		if math.Abs(got-(tt.rest+experts)) > 1 || math.Abs(routed-experts) > 1 {
			t.Errorf("%s: weightBytesOn = %.0f B (%.2f GiB), routed %.0f B; want %.0f B, routed %.0f B", tt.name, got, got/model.GiB, routed, tt.rest+experts, experts)
		}
	}
	// The checkpoint (WeightBytes) is what it was: 60.77 GiB.
	if got := WeightBytes(big, WeightMXFP4); math.Abs(got-(114661785600*MXFP4BytesPerParam+(2127557952+4608*8640)*2)) > 1 {
		t.Errorf("WeightBytes(gpt-oss-120b, mxfp4) = %.0f B, want the checkpoint's", got)
	}
	// Pipeline stages split every layer's weights; tensor parallelism
	// splits the dense ones and each expert's inner size (padded per GPU).
	whole, _ := weightBytesOn(big, WeightMXFP4, 2, mxA100, 1, 1)
	if half, _ := weightBytesOn(big, WeightMXFP4, 2, mxA100, 1, 2); math.Abs(half-whole/2) > 1 {
		t.Errorf("PP 2: %.0f B a GPU, want half of %.0f", half, whole)
	}
	if tp2, _ := weightBytesOn(big, WeightMXFP4, 2, mxA100, 2, 1); math.Abs(tp2-(4255115904.0/2+4608*(7520256+12288))) > 1 {
		t.Errorf("TP 2 on A100: %.0f B a GPU, want 4,255,115,904 / 2 + 4608 × 7,532,544", tp2)
	}
	// Other formats are the checkpoint's, split evenly.
	for _, f := range []WeightFormat{WeightBF16, WeightFP8} {
		if got, routed := weightBytesOn(big, f, 2, mxH100, 4, 1); got != WeightBytes(big, f)/4 || routed != RoutedExpertBytes(big, f)/4 {
			t.Errorf("%s: weightBytesOn = %.0f, %.0f; want WeightBytes / 4, RoutedExpertBytes / 4", f, got, routed)
		}
	}
}
