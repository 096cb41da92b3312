package model

import "math"

// GenericShape returns a decoder-only shape with about params parameters,
// for activations and FLOPs when only a parameter count is known. It uses
// Kaplan et al., 2020, "Scaling Laws for Neural Language Models", §2.1
// (N ≈ 12·n_layer·d_model²) with the GPT-3 family's aspect ratio
// d_model = 128·n_layer (Brown et al., 2020, Table 2.1: 7B: 32 × 4096,
// 13B: 40 × 5120), head size 128, an MLP of 4·d_model and a 32,000-token
// vocabulary. Params stays set, so model-state memory remains exact.
func GenericShape(params float64) Architecture {
	layers := max(1, int(math.Round(math.Cbrt(params/(12*128*128)))))
	// Solve 12·L·h² = N for h with L fixed, rounded to a multiple of 128.
	hidden := max(128, 128*int(math.Round(math.Sqrt(params/(12*float64(layers)))/128)))
	return Architecture{
		Family: FamilyDecoder,
		Params: params,
		Layers: layers,
		Hidden: hidden,
		Heads:  hidden / 128,
		FFN:    4 * hidden,
		Vocab:  32000,
		Norm:   RMSNorm,
	}
}

// matmulParams returns the parameters that take part in matrix
// multiplies per token: the active parameters without the embedding
// lookups, plus the LM-head projection when logits are computed (it costs
// FLOPs even when tied to the embedding). A classification Head has no LM
// head: its hidden × Labels score stays in the active parameters and is
// charged to every position, as transformers runs it
// (GenericForSequenceClassification.forward: "logits =
// self.score(hidden_states)", then pools the last non-pad token's);
// an encoder's pooler and classifier run on one position per sequence and
// are charged to every one too, a surplus below 1% of a BERT's FLOPs.
func matmulParams(w *Workload) float64 {
	a := &w.Model
	n := a.ActiveParams()
	if !a.HasShape() {
		return n
	}
	n -= a.embeddingTable()
	if a.Head != "" {
		return max(n, 0)
	}
	if !a.Tied && a.Family != FamilyViT {
		n -= float64(a.Vocab) * float64(a.Hidden) // untied head counted below
	}
	if countsLogits(w) || w.Task == TaskInference && (a.Family == FamilyDecoder || a.Family == FamilyEncoderDecoder) {
		n += float64(a.Vocab) * float64(a.Hidden)
	}
	return max(n, 0)
}

// ForwardFLOPsPerSample returns the forward FLOPs for one sample (a
// sequence of SeqLen tokens or an image), counting a multiply-add as 2.
//
// Transformers: 2·N per token for the matmuls plus 4·L·s·d_attn per token
// for the attention scores (QKᵀ and AV over the full s×s matrix), the
// accounting of Chowdhery et al., 2022, "PaLM", Appendix B (the model-FLOPs
// definition of MFU). Encoder-decoders charge encoder parameters to encoder
// tokens and decoder parameters to decoder tokens. CNNs and U-Nets: 2 ×
// the catalog's MACs, scaled by pixel count.
func ForwardFLOPsPerSample(w *Workload) float64 {
	a := &w.Model
	if !a.HasShape() && !a.Family.Transformer() {
		return 2 * a.ForwardGMACs * 1e9 * visionScale(w.ImageSize, a.ImageSize)
	}
	n := matmulParams(w)
	qd := float64(a.Heads * a.EffectiveHeadDim())
	switch a.Family {
	case FamilyViT:
		s := vitTokens(a, w.ImageSize)
		return 2*n*s + 4*float64(a.Layers)*s*s*qd
	case FamilyEncoderDecoder:
		sEnc, sDec := encoderLen(w), float64(w.SeqLen)
		enc := float64(a.Layers) * a.layerParams(a.ActiveExperts())
		dec := max(n-enc, 0)
		attn := 4*float64(a.Layers)*sEnc*sEnc*qd + 4*float64(a.DecoderLayers)*(sDec*sDec+sDec*sEnc)*qd
		return 2*enc*sEnc + 2*dec*sDec + attn
	}
	s := float64(w.SeqLen)
	return 2*n*s + 4*float64(a.Layers)*s*s*qd
}

// TrainFLOPsPerSample returns the model FLOPs of one training sample: the
// backward pass costs twice the forward (Kaplan et al., 2020, §2.1: 6·N
// per token). LoRA skips the frozen weights' gradient GEMMs, so the base
// costs 2·N forward + 2·N for input gradients, and the adapters 6 FLOPs
// per parameter per token. Recomputation is not model FLOPs (Chowdhery et
// al., 2022, "PaLM", App. B); HardwareFLOPsPerSample adds it.
func TrainFLOPsPerSample(w *Workload) float64 {
	fwd := ForwardFLOPsPerSample(w)
	mult := 3.0
	if w.Task.Adapters() {
		mult = 2
	}
	f := mult * fwd
	if w.Task.Adapters() {
		f += 6 * loraParams(w) * tokensPerSample(w)
	}
	return f
}

// HardwareFLOPsPerSample returns the FLOPs the GPU executes for one
// training sample: the model FLOPs plus one more forward pass under full
// activation checkpointing (Korthikanti et al., 2022, §5: 8·N per token).
func HardwareFLOPsPerSample(w *Workload) float64 {
	f := TrainFLOPsPerSample(w)
	if w.Ckpt() {
		f += ForwardFLOPsPerSample(w)
	}
	return f
}

// tokensPerSample returns tokens per sample, or 1 for vision models.
func tokensPerSample(w *Workload) float64 {
	if w.Model.Family.Vision() {
		return 1
	}
	return float64(w.SeqLen)
}

// datasetSamples returns samples per epoch: DatasetSamples, or
// DatasetTokens / SeqLen; 0 when no dataset is given.
func datasetSamples(w *Workload) float64 {
	if w.DatasetSamples > 0 {
		return w.DatasetSamples
	}
	if w.DatasetTokens > 0 {
		return w.DatasetTokens / tokensPerSample(w)
	}
	return 0
}

// Utilisation constants that are sourced, not fitted (the fitted ones are
// Tuning's). Model FLOPs utilisation is achieved model FLOP/s over the
// dense peak (Chowdhery et al., 2022, "PaLM", Appendix B), with FLOPs
// counted as in ForwardFLOPsPerSample.
const (
	// MFUTransformer is the MFU of transformer inference prefill and of
	// estimates without a GPU: Llama 2 pre-training on A100-80GB ran at
	// 45/43/38/46% end to end for 7B/13B/34B/70B (Touvron et al., 2023,
	// Table 2 GPU-hours). No calibration case times inference.
	MFUTransformer = 0.45
	// MFUFP8: fp8 runs measured against the fp8 peak: 28% for a 3B model on
	// H100 (mosaicml/llm-foundry benchmarking table, amp_fp8). Only the
	// MFU reported without a GPU uses it; the time model runs fp8 training
	// as Transformer Engine does (stepTime: the linear GEMMs at the fp8
	// peak, attention at the 16-bit peak) at the family's utilisation.
	MFUFP8 = 0.28
	// MBU is the memory-bandwidth utilisation of decoding (bytes read per
	// second over peak bandwidth), the metric of Databricks' "LLM Inference
	// Performance Engineering: Best Practices" (2023), which reports
	// values around 60% for Llama-2-70B on A100s; prefill uses the
	// training MFU of the family.
	MBU = 0.60
)

// utilClass is which utilisation figure a workload is timed at.
type utilClass int

const (
	utilTransformer   utilClass = iota // HFUTransformer × width (training), MFUTransformer (inference)
	utilSmallFinetune                  // Tuning.MFUSmallFinetune
	utilConv                           // Tuning.MFUConv
	utilConvTF32                       // Tuning.MFUConvTF32
	utilFP32                           // Tuning.MFUFP32
	utilFP8                            // MFUFP8
)

// utilClassOf returns w's utilisation class: by precision first (fp32,
// fp8), then familyClass.
func utilClassOf(w *Workload) utilClass {
	switch w.Precision {
	case FP32:
		return utilFP32
	case FP8:
		return utilFP8
	}
	return familyClass(w)
}

// familyClass returns w's class by family (convolutional networks, in
// tf32 apart), size and task (fine-tuning transformers under 10⁹
// parameters), whatever the precision.
func familyClass(w *Workload) utilClass {
	switch {
	case !w.Model.Family.Transformer() && w.Precision == TF32:
		return utilConvTF32
	case !w.Model.Family.Transformer():
		return utilConv
	case w.Task != TaskTrain && w.Task != TaskInference && w.Model.ParamCount() < 1e9:
		return utilSmallFinetune
	}
	return utilTransformer
}

// DefaultMFU returns the MFU used when the user gives none and no GPU is
// known (and for inference), by family, size, task and precision (see
// utilisation).
func DefaultMFU(w *Workload) float64 { return utilisation(w, w.tuning(), false) }

// utilisation returns the figure of w's class in t; a field of 0 falls
// back to the next coarser figure (fp32 to the family's, tf32 CNNs to
// 16-bit CNNs, CNNs and small fine-tunes to transformers). Transformers
// get HFUTransformer scaled by widthFactor when hardware is true (the
// time model), MFUTransformer otherwise.
func utilisation(w *Workload, t *Tuning, hardware bool) float64 {
	c := utilClassOf(w)
	if c == utilFP32 {
		if t.MFUFP32 > 0 {
			return t.MFUFP32
		}
		c = familyClass(w)
	}
	if c == utilFP8 {
		if !hardware {
			return MFUFP8
		}
		c = familyClass(w)
	}
	switch c {
	case utilConvTF32:
		if t.MFUConvTF32 > 0 {
			return t.MFUConvTF32
		}
		fallthrough
	case utilConv:
		if t.MFUConv > 0 {
			return t.MFUConv
		}
		return t.HFUTransformer
	case utilSmallFinetune:
		if t.MFUSmallFinetune > 0 {
			return t.MFUSmallFinetune
		}
	}
	if hardware {
		return t.HFUTransformer * widthFactor(&w.Model, t)
	}
	return MFUTransformer
}
