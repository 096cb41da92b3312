package model

import (
	"math"
	"testing"
)

var (
	testA100 = &GPU{Key: "a100-80gb", Name: "A100", Architecture: "ampere", MemoryGiB: 80, BF16TFLOPS: 312, FP16TFLOPS: 312,
		TF32TFLOPS: 156, FP32TFLOPS: 19.5, MemoryBandwidthGBps: 2039, InterconnectGBps: 600, ComputeCapability: "8.0"}
	testH100 = &GPU{Key: "h100-sxm", Name: "H100", Architecture: "hopper", MemoryGiB: 80, BF16TFLOPS: 989, FP16TFLOPS: 989,
		TF32TFLOPS: 494, FP32TFLOPS: 67, MemoryBandwidthGBps: 3350, InterconnectGBps: 900, ComputeCapability: "9.0"}
)

// TestUserMFUAsGiven: a user MFU gives time = model FLOPs / (GPUs × peak ×
// MFU), with no multi-GPU factor and no recomputation on top.
func TestUserMFUAsGiven(t *testing.T) {
	for _, gpus := range []int{1, 8} {
		w := Workload{
			Settings: Settings{SeqLen: 2048, MicroBatch: 1, GPUs: gpus, Strategy: FSDP, DatasetTokens: 1e9, MFU: 0.4, Checkpointing: Bool(true)},
			Model:    llama2_7B,
		}
		e, err := Compute(w, testA100)
		if err != nil {
			t.Fatal(err)
		}
		want := e.TotalFLOPs / (float64(gpus) * 312e12 * 0.4) / 3600
		if math.Abs(e.Hours/want-1) > 1e-9 {
			t.Errorf("%d GPUs: %.6g h, want %.6g h", gpus, e.Hours, want)
		}
		if e.MFU != 0.4 {
			t.Errorf("MFU %.3f, want 0.4 as given", e.MFU)
		}
	}
}

// TestRecomputeCostsHardwareFLOPs: checkpointing adds one forward of
// hardware FLOPs (8/6 of the model FLOPs for dense matmuls) and lowers the
// MFU by that ratio only, never twice.
func TestRecomputeCostsHardwareFLOPs(t *testing.T) {
	base := Workload{Settings: Settings{SeqLen: 2048, MicroBatch: 1, DatasetTokens: 1e9, FlashAttention: Bool(false)}, Model: llama2_7B}
	ck := base
	ck.Checkpointing = Bool(true)
	off, _ := Compute(base, testA100)
	on, _ := Compute(ck, testA100)
	if on.FLOPsPerSample != off.FLOPsPerSample {
		t.Errorf("model FLOPs changed with checkpointing: %.6g → %.6g", off.FLOPsPerSample, on.FLOPsPerSample)
	}
	if r := on.HardwareFLOPsPerSample / off.HardwareFLOPsPerSample; math.Abs(r-4.0/3) > 1e-9 {
		t.Errorf("hardware FLOPs ratio %.6f, want 4/3", r)
	}
	// The optimizer step (optimizerStepBytes) is the same with or without
	// checkpointing; the rest of the time grows by 4/3.
	opt := off.Samples / off.SamplesPerStep * optimizerStepBytes(&off.Workload) / (testA100.MemoryBandwidthGBps * 1e9 * MBU) / 3600
	if r := (on.Hours - opt) / (off.Hours - opt); opt <= 0 || math.Abs(r-4.0/3) > 1e-9 {
		t.Errorf("time ratio without the optimizer step (%.3g h) %.6f, want 4/3 (same utilisation of hardware FLOPs)", opt, r)
	}
	if on.HFU != off.HFU {
		t.Errorf("HFU changed with checkpointing: %.3f → %.3f", off.HFU, on.HFU)
	}
}

// TestHFU: Hopper runs at HopperFactor of Ampere's utilisation, narrow
// models lose some, width 4096 is the reference; a Tuning field of 0
// falls back to the coarser figure.
func TestHFU(t *testing.T) {
	tn := Tuning{HFUTransformer: 0.5, HopperFactor: 0.7, WidthKnee: 256, MFUConv: 0.2}
	w := Workload{Settings: Settings{Task: TaskTrain}, Model: llama2_7B, Tuning: &tn}
	w.Defaults()
	if got := DefaultHFU(&w, testA100); got != 0.5 {
		t.Errorf("A100, h = 4096: HFU %.4f, want 0.5", got)
	}
	if got := DefaultHFU(&w, testH100); math.Abs(got-0.5*0.7) > 1e-12 {
		t.Errorf("H100: HFU %.4f, want 0.35", got)
	}
	w.Model = gpt2Small // h = 768: (768/1024)/(4096/4352)
	if got, want := DefaultHFU(&w, testA100), 0.5*(768.0/1024)/(4096.0/4352); math.Abs(got-want) > 1e-12 {
		t.Errorf("gpt2: HFU %.4f, want %.4f", got, want)
	}
	// fp32 without MFUFP32 is timed as the family's 16-bit figure; a tf32
	// CNN without MFUConvTF32 as a 16-bit CNN.
	w.Precision = FP32
	if got, want := DefaultHFU(&w, testA100), 0.5*(768.0/1024)/(4096.0/4352); math.Abs(got-want) > 1e-12 {
		t.Errorf("gpt2 fp32: HFU %.4f, want %.4f", got, want)
	}
	w.Model, w.Precision = Architecture{Key: "cnn", Family: FamilyCNN, Params: 25e6, ForwardGMACs: 4, ActivationMiBPerSample: 100, ImageSize: 224}, TF32
	if got := DefaultHFU(&w, testA100); got != 0.2 {
		t.Errorf("tf32 CNN: HFU %.4f, want MFUConv 0.2", got)
	}
}

// TestCollectives: ring traffic per GPU and step, by strategy (ZeRO paper
// §7.2: DDP and ZeRO-1/2 move 2Ψ, ZeRO-3 3Ψ), in the gradients' dtype.
func TestCollectives(t *testing.T) {
	const psi = 1e9
	tests := []struct {
		s     Strategy
		p     Precision
		want  float64
		whole bool
	}{
		{DDP, AMPBF16, 2 * 7.0 / 8 * psi * 4, false},        // fp32 gradients under autocast
		{DDP, BF16, 2 * 7.0 / 8 * psi * 2, false},           // pure bf16
		{ZeRO2, AMPBF16, 7.0 / 8 * (psi*2 + psi*2), false},  // reduce-scatter + all-gather, 16-bit
		{ZeRO3, AMPBF16, 7.0 / 8 * (2*psi*2 + psi*2), true}, // two all-gathers + reduce-scatter
	}
	for _, tt := range tests {
		w := Workload{Settings: Settings{Precision: tt.p, Strategy: tt.s, GPUs: 8}, Model: Architecture{Family: FamilyDecoder, Params: psi}}
		w.Defaults()
		got, whole := commBytesPerStep(&w)
		if math.Abs(got-tt.want) > 1 || whole != tt.whole {
			t.Errorf("%s %s: %.6g B (whole step %v), want %.6g B (%v)", tt.s, tt.p, got, whole, tt.want, tt.whole)
		}
	}
	// Exposed communication: a slow inter-node link makes DDP of a 7B
	// model at batch 1 communication-bound, and more GPUs per node helps.
	w := Workload{Settings: Settings{SeqLen: 512, MicroBatch: 1, GPUs: 16, Strategy: DDP, DatasetTokens: 1e9}, Model: llama2_7B}
	e, _ := Compute(w, testA100)
	slow := e
	slow.Retime(testA100, Host{GPUsPerNode: 8, IntraGBps: 300, InterGBps: 3})
	if slow.CommSeconds <= 0 || slow.Hours <= e.Hours {
		t.Errorf("3 GB/s between nodes: exposed %.3g s, %.4g h vs %.4g h on one fabric", slow.CommSeconds, slow.Hours, e.Hours)
	}
}

// TestCNNRoofline: a depthwise network is memory-bound, so its time
// scales with bandwidth, not with the tensor-core peak.
func TestCNNRoofline(t *testing.T) {
	eff := Architecture{Key: "efficientnet-b0", Family: FamilyCNN, Params: 5288548, ForwardGMACs: 0.386, ActivationMiBPerSample: 42.05, ImageSize: 224}
	w := Workload{Settings: Settings{MicroBatch: 256, DatasetSamples: 1.28e6}, Model: eff}
	tn := Tuning{HFUTransformer: 0.52, HopperFactor: 0.68, MFUConv: 0.21, CNNTrafficFactor: 10}
	w.Tuning = &tn
	a, _ := Compute(w, testA100)
	h, _ := Compute(w, testH100)
	if !a.MemoryBound || !h.MemoryBound {
		t.Fatalf("EfficientNet-B0 not memory-bound (A100 %v, H100 %v)", a.MemoryBound, h.MemoryBound)
	}
	if r, want := h.SamplesPerSecond/a.SamplesPerSecond, 3350.0/2039; math.Abs(r-want) > 1e-9 {
		t.Errorf("H100/A100 speed-up %.3f, want the bandwidth ratio %.3f", r, want)
	}
	// 10 × 42.05 MiB per image at 60% of 2039 GB/s, and the optimizer
	// step, once per 256 images: the default AdamW (foreach) under
	// autocast, 12·4 + 3·4 + 2·4 + 2·4 = 76 bytes per parameter.
	perImage := 10*42.05*MiB/(2039e9*MBU) + 76*eff.Params/(2039e9*MBU)/256
	if want := 1 / perImage; math.Abs(a.SamplesPerSecond/want-1) > 1e-9 {
		t.Errorf("A100: %.1f img/s, want %.1f", a.SamplesPerSecond, want)
	}
}

// TestInputPipelineCap: vision throughput never exceeds vCPUs × rate.
func TestInputPipelineCap(t *testing.T) {
	w := Workload{Settings: Settings{MicroBatch: 256, DatasetSamples: 1.28e6}, Model: resnet50}
	e, _ := Compute(w, testA100)
	e.Retime(testA100, Host{GPUsPerNode: 1, IntraGBps: 300, VCPUs: 8, ImagesPerVCPU: 100})
	if !e.InputBound || e.SamplesPerSecond != 800 {
		t.Errorf("8 vCPUs × 100 img/s: %.1f img/s (input-bound %v), want 800", e.SamplesPerSecond, e.InputBound)
	}
}

// TestFitVerdict: the band decides between fits, borderline and does not fit.
func TestFitVerdict(t *testing.T) {
	e, _ := Compute(Workload{Settings: Settings{Task: TaskQLoRA, SeqLen: 1024}, Model: llama2_7B}, nil)
	lo, hi := e.MemoryBand[0], e.MemoryBand[1]
	if !(lo <= e.Memory.Total() && e.Memory.Total() <= hi) {
		t.Fatalf("band %.4g–%.4g does not hold the estimate %.4g", lo, hi, e.Memory.Total())
	}
	for _, tt := range []struct {
		usable float64
		want   FitVerdict
	}{{hi * 1.01, VerdictFits}, {(lo + hi) / 2, VerdictBorderline}, {lo * 0.99, VerdictNoFit}} {
		g := &GPU{Key: "x", Name: "x", MemoryGiB: tt.usable / (1 - FitMargin) / GiB, BF16TFLOPS: 100, ComputeCapability: "8.0"}
		if v := VerdictFor(e.ResidentBand(), UsableBytes(g)); v != tt.want {
			t.Errorf("usable %.4g B: %s, want %s", UsableBytes(g), v, tt.want)
		}
	}
}

// TestOptimizerStepBytes: the bytes one optimizer step moves, worked out
// from the passes of torch/optim/adam.py _multi_tensor_adam and of a
// single fused kernel (optimizerStepBytes).
func TestOptimizerStepBytes(t *testing.T) {
	const psi = 1e9
	tests := []struct {
		name string
		w    Workload
		want float64
	}{
		// pure bf16 AdamW, foreach: 12·2 + 3·2 + 2·2, + 2·2 decay = 38 B
		{"bf16 adamw", Workload{Settings: Settings{Precision: BF16, Optimizer: AdamW}}, 38 * psi},
		// autocast Adam (fp32 weights, gradients, states): 48 + 12 + 8
		{"amp adam", Workload{Settings: Settings{Precision: AMPBF16, Optimizer: Adam}}, 68 * psi},
		// PyTorch 1.12's for-loop Adam: 14·4 + 12 + 8
		{"amp adam 1.12", Workload{Settings: Settings{Precision: AMPBF16, Optimizer: Adam, Torch: TorchVersion{1, 12}}}, 76 * psi},
		// torch AdamW(fused=True), pure bf16: one _fused_adamw_ pass,
		// g + 2p + 2·(2 states · 2) = 2 + 4 + 8 = 14 B (the foreach
		// form's 38 above)
		{"bf16 adamw fused", Workload{Settings: Settings{Precision: BF16, Optimizer: AdamWFused}}, 14 * psi},
		// TensorFlow's fused Adam kernel: g + 2p + 2·(2 states · 4) = 28
		{"tf adam", Workload{Settings: Settings{Framework: TensorFlow, Precision: AMPFP16, Optimizer: Adam}}, 28 * psi},
		// DeepSpeed ZeRO-2 over 8 GPUs: the fp32 partition, 4 + 8 + 16,
		// and the 16-bit weights written back, 2: 30 B per owned parameter
		{"zero2", Workload{Settings: Settings{Precision: AMPBF16, Optimizer: AdamW, Strategy: ZeRO2, GPUs: 8, Recipe: RecipeDeepSpeed}}, 30 * psi / 8},
		{"offloaded", Workload{Settings: Settings{Precision: AMPBF16, Optimizer: AdamW, Strategy: ZeRO2, GPUs: 8, Switches: Switches{OffloadOptimizer: true}}}, 0},
	}
	for _, tt := range tests {
		w := tt.w
		w.Model = Architecture{Family: FamilyDecoder, Params: psi}
		w.Defaults()
		if got := optimizerStepBytes(&w); math.Abs(got-tt.want) > 1e-6*tt.want+1 {
			t.Errorf("%s: %.6g B, want %.6g B", tt.name, got, tt.want)
		}
	}
}
