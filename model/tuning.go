package model

// Tuning is every constant of the estimator that is fitted to published
// measurements rather than read from a paper, a datasheet or framework
// source: utilisations, the Hopper and width factors of the time model,
// the CNN roofline's traffic and the caching allocator's fragmentation.
// Everything else (bytes per state, activation terms, collectives) is
// derived from its source and never fitted.
//
// DefaultTuning (calibration_bands.go, generated) is the fit on every
// source of the calibration suite, data/testdata/calibration/cases*.toml.
// The calibration test refits it without each source in turn
// (leave-one-source-out cross-validation) to report the accuracy a run
// the suite has never seen gets; the fitter minimises the mean absolute
// log error, each source weighing the same, over a grid per field,
// one field at a time and HFUTransformer jointly with the constants it
// trades off against, from two fixed starting points, keeping the lower
// loss (data/calibration_cv_test.go, fitTuning). A field
// no remaining case informs keeps its TuningPrior value.
//
// A utilisation is a share of the dense peak at the run's precision
// (GPU.PeakTFLOPS); hardware FLOPs count recomputation (Korthikanti et
// al., 2022, §6), model FLOPs do not (Chowdhery et al., 2022, App. B).
type Tuning struct {
	// HFUTransformer is the hardware FLOPs utilisation of transformer
	// training on an Ampere GPU in 16-bit for a model of width ≥ 4096.
	// Informed by llm-foundry's A100 tables, Llama 2's GPU-hours and
	// BERT-large pre-training (DeepLearningExamples).
	HFUTransformer float64
	// HopperFactor scales utilisation on Hopper and Blackwell (and, by
	// the peak ratios of genFactor, AMD CDNA 3/4): their tensor cores
	// outrun everything else; 0 is read as 1. Informed by llm-foundry's
	// H100 table only.
	HopperFactor float64
	// WidthKnee sets how narrow transformers lose utilisation:
	// h/(h+WidthKnee), normalised to 1 at h = 4096 (0: no loss). Informed
	// by the small MPT models (125m–1b) and BERT-large.
	WidthKnee float64
	// AttentionEfficiency is the utilisation of attention-score FLOPs
	// relative to the matmuls'; 0 is read as 1. Informed by llm-foundry's
	// long-sequence rows, where attention is most of the FLOPs.
	AttentionEfficiency float64
	// MFUSmallFinetune is the utilisation of fine-tuning transformers
	// under 10⁹ parameters (short, small batches), in 16-bit and tf32;
	// 0 times them as any transformer (HFUTransformer and WidthKnee).
	// Informed by BERT-large SQuAD (DeepLearningExamples).
	MFUSmallFinetune float64
	// MFUConv is the utilisation of convolutional networks on tensor
	// cores in 16-bit, MFUConvTF32 in tf32; MFUConvTF32 0 uses MFUConv,
	// MFUConv 0 uses HFUTransformer. Informed by ResNet-50 v1.5 and
	// EfficientNet-B0 (DeepLearningExamples).
	MFUConv, MFUConvTF32 float64
	// MFUFP32 is the utilisation of fp32 on CUDA cores, any family; 0
	// times it as the family's 16-bit figure. Informed by the V100 fp32
	// rows of DeepLearningExamples (ResNet-50, EfficientNet-B0, BERT).
	MFUFP32 float64
	// CNNTrafficFactor is the bytes a convolutional network moves per
	// byte of saved activations in one training step (forward writes and
	// reads, batch norm and activation passes, backward reads and
	// gradient writes), at MBU of the peak bandwidth: the roofline
	// (Williams et al., 2009) that makes depthwise networks memory-bound;
	// 0 leaves CNNs compute-bound. Informed by EfficientNet-B0
	// (DeepLearningExamples).
	CNNTrafficFactor float64
	// NCHWFactor multiplies the step time of a convolutional network run
	// on tensor cores in PyTorch's default NCHW layout (NCHWTensorCores):
	// cuDNN's tensor-core convolutions take NHWC, so NCHW tensors are
	// transposed around them; 0 is read as 1. Informed by the NCHW
	// sources of the suite (timm's nchw table, Lambda's and
	// sandeepkumar-skb's ResNet-50 runs) against the NHWC ones.
	NCHWFactor float64
	// FragmentationFraction is the share of dynamically allocated memory
	// (activations and gradients, freed and re-allocated every step) that
	// PyTorch's caching allocator holds reserved but cannot reuse: the
	// "slivers" expandable_segments avoids (PyTorch CUDA semantics notes);
	// the ZeRO paper (§3.2) saw over 30% of memory unusable in extreme
	// cases. Informed by the nvidia-smi readings of the suite (0: none).
	FragmentationFraction float64
}

// TuningPrior is what each fitted constant is before any calibration
// case informs it: the value a fold of the cross-validation keeps when
// the only cases informing a field are the left-out source's. Values
// without effect (1 for factors, 0 for the rest: the class falls back to
// the coarser figure) but for two that need a figure:
//
//   - HFUTransformer 0.52: Megatron-LM's 52% of peak on 3072 A100s,
//     recomputation included (Narayanan et al., 2021, "Efficient
//     Large-Scale Language Model Training on GPU Clusters Using
//     Megatron-LM", abstract), a run the suite does not contain.
//   - CNNTrafficFactor 5: the fewest passes a training step makes over
//     the activations it saves, with every elementwise op fused: forward
//     writes each saved tensor and the next layer reads it (2), backward
//     reads it (1) and writes and reads the gradient of the same size
//     (2); the roofline's floor (Williams et al., 2009).
var TuningPrior = Tuning{HFUTransformer: 0.52, HopperFactor: 1, AttentionEfficiency: 1, CNNTrafficFactor: 5, NCHWFactor: 1}

// tuning returns the constants w is estimated with: w.Tuning when set
// (the calibration's cross-validation), else DefaultTuning.
func (w *Workload) tuning() *Tuning {
	if w.Tuning != nil {
		return w.Tuning
	}
	return &DefaultTuning
}
