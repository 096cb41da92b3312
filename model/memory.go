package model

import "math"

// Memory is the peak memory one GPU needs, in bytes, by kind.
type Memory struct {
	Weights         float64 // parameters resident on the GPU (plus gathered shards under ZeRO-3/FSDP)
	Gradients       float64
	OptimizerStates float64 // including the fp32 master copy in mixed precision
	Activations     float64 // kept for backward (training) or the forward working set (inference), with logits
	KVCache         float64
	Overhead        float64 // see Overhead
}

// Total returns the sum of the parts, in bytes.
func (m Memory) Total() float64 {
	return m.Weights + m.Gradients + m.OptimizerStates + m.Activations + m.KVCache + m.Overhead
}

// ModelStates returns weights + gradients + optimizer states, in bytes.
func (m Memory) ModelStates() float64 { return m.Weights + m.Gradients + m.OptimizerStates }

// Overhead is the memory no tensor sum shows, per GPU, in bytes.
type Overhead struct {
	CUDAContext   float64 // driver context and loaded kernels: CUDAContextBytes
	Workspace     float64 // cuBLAS scratch space: CUBLASWorkspaceBytes
	Communication float64 // NCCL buffers, and DDP's gradient buckets, when several GPUs take part
	Fragmentation float64 // caching-allocator blocks reserved but not allocated
}

// Total returns the sum of the parts, in bytes.
func (o Overhead) Total() float64 {
	return o.CUDAContext + o.Workspace + o.Communication + o.Fragmentation
}

// Runtime overhead constants. They are typical values, not guarantees;
// each is named in the estimate's assumptions so users can see it.
const (
	// CUDAContextBytes is the memory the CUDA context takes on the first
	// CUDA call: driver state plus the kernels loaded. With lazy module
	// loading (CUDA ≥ 11.7, PyTorch's default since 1.13) measurements are
	// 274 MiB (pytorch/pytorch#86509), "around 400MB" (#109888) and 426 MiB
	// (PyTorch 2.10, CUDA 13, unslothai/unsloth-zoo#1053); we take 430 MiB.
	// Without lazy loading it was 636 MiB to over 1 GB.
	CUDAContextBytes = 430 * MiB
	// CUBLASWorkspaceBytes is cuBLAS's workspace per handle and stream:
	// PyTorch allocates 32 MiB on Hopper and Blackwell and 8.125 MiB
	// (":4096:2:16:8") on older GPUs (PyTorch CUDA semantics notes, "cuBLAS
	// workspaces"; aten/src/ATen/cuda/CublasHandlePool.cpp). We keep the
	// larger, so the estimate does not depend on the GPU.
	CUBLASWorkspaceBytes = 32 * MiB
	// NCCLBufferBytes is NCCL's buffer for each pair of communicating GPUs,
	// NCCL_BUFFSIZE = 4 MiB by default (NCCL environment-variable docs),
	// for the two ring neighbours of each GPU. NCCL may use several
	// channels, each with its own buffers, so this is a lower bound.
	NCCLBufferBytes = 2 * 4 * MiB
	// FragmentationFraction is the share of dynamically allocated memory
	// (activations and gradients, freed and re-allocated every step) that
	// PyTorch's caching allocator holds reserved but cannot reuse. No
	// systematic measurement is published; the ZeRO paper (§3.2) saw over
	// 30% of memory unusable in extreme cases, PyTorch's notes describe the
	// "slivers" that expandable_segments avoids. 10% is our typical case.
	FragmentationFraction = 0.10
)

// bytesOf returns bytes per element for weights (and gradients) when
// training at p, following the ZeRO paper's accounting for mixed precision
// (Rajbhandari et al., 2020, §3.1: fp16 parameters and gradients, fp32
// optimizer states including the master copy).
func trainWeightBytes(p Precision) float64 {
	switch p {
	case FP32, TF32:
		return 4
	}
	return 2 // amp-fp16, amp-bf16, bf16, fp8 (weights kept in bf16; fp8 is the GEMM input format)
}

// masterBytes returns the fp32 master copy bytes per trainable parameter:
// mixed precision keeps one (ZeRO §3.1), pure bf16 and fp32 do not.
func masterBytes(p Precision) float64 {
	switch p {
	case AMPFP16, AMPBF16, FP8:
		return 4
	}
	return 0
}

// Block-wise quantization constants of bitsandbytes' 8-bit optimizers:
// one fp32 absolute maximum per block of values per state (Dettmers et al.,
// 2022, "8-bit Optimizers via Block-wise Quantization", §2.1, used blocks of
// 2048; current bitsandbytes, csrc/ops.cu BLOCKSIZE_2STATE, uses 256).
const (
	blockSize8bit = 256
	// adafactorDefaultWidth stands for the matrix side of models without a
	// shape (CNNs), for Adafactor's factored second moment.
	adafactorDefaultWidth = 512
)

// optimizerStateBytes returns optimizer bytes per trainable parameter,
// without the master copy. Adam keeps two moments (Kingma & Ba, 2015) in
// the parameter's dtype for pure bf16 (torch.optim allocates states with
// zeros_like(param)) and in fp32 otherwise; SGD with momentum one; plain SGD
// none; Adafactor factors the second moment of an r×c matrix into r+c
// values and keeps no momentum by default (Shazeer & Stern, 2018, §3); 8-bit
// AdamW stores each moment in one byte plus block constants.
func optimizerStateBytes(o Optimizer, p Precision, a *Architecture) float64 {
	state := 4.0
	if p == BF16 {
		state = 2
	}
	switch o {
	case Adam, AdamW:
		return 2 * state
	case SGDMomentum:
		return state
	case SGD:
		return 0
	case Adafactor:
		// r+c fp32 values for r·c parameters: 4·(1/r + 1/c) bytes per parameter,
		// with r = h and c = ffn (the MLP holds most parameters).
		if a.HasShape() {
			return 4 * (1/float64(a.Hidden) + 1/float64(a.FFN))
		}
		return 4 * 2 / adafactorDefaultWidth
	case AdamW8bit:
		return 2 * (1 + 4.0/blockSize8bit)
	}
	return 2 * state
}

// NF4 storage per parameter under QLoRA (Dettmers et al., 2023, "QLoRA",
// §3 Double Quantization): 4 bits of weight, plus one 8-bit constant per
// 64-value block and one fp32 constant per 256 blocks: 8/64 + 32/(64·256)
// bits, i.e. 0.127 bits of constants per parameter.
const NF4BytesPerParam = 0.5 + 1.0/64 + 4.0/(64*256)

// Weight-only quantization for inference stores linear layers in 8 or 4 bits
// with one fp16 scale per group of 128 input values (and a 4-bit zero point
// for int4), as GPTQ (Frantar et al., 2022, §4) and AWQ (Lin et al., 2023,
// §4) do by default; embeddings, norms and the LM head stay in 16-bit.
const (
	quantGroup        = 128
	Int8BytesPerParam = 1 + 2.0/quantGroup
	Int4BytesPerParam = 0.5 + 2.5/quantGroup
)

// inferenceLinearBytes returns bytes per linear-layer parameter for inference at p.
func inferenceLinearBytes(p Precision) float64 {
	switch p {
	case FP32:
		return 4
	case FP8:
		return 1 // per-tensor scales are negligible
	case INT8:
		return Int8BytesPerParam
	case INT4:
		return Int4BytesPerParam
	}
	return 2
}

// activationBytes returns bytes per activation element: 4 in fp32 and
// tf32 (tf32 is a compute mode, tensors stay fp32), else 2.
func activationBytes(p Precision) float64 {
	if p == FP32 || p == TF32 {
		return 4
	}
	return 2
}

// kvBytes returns bytes per KV-cache element: fp32 for fp32 models, 16-bit
// otherwise. Serving engines keep the cache in the activation dtype unless
// told otherwise (vLLM's kv_cache_dtype defaults to "auto", the model's
// dtype), so fp8 and int8/int4 weights still have a 16-bit cache.
func kvBytes(p Precision) float64 {
	if p == FP32 {
		return 4
	}
	return 2
}

// blockActivation returns the bytes one transformer block keeps for
// backward, per GPU. It is Korthikanti et al., 2022, "Reducing Activation
// Recomputation in Large Transformer Models", §4.1, term by term, with
// tensor parallelism t (§4.2.1, eq. 2: sbh·(10 + 24/t + 5as/(ht))), generalised
// to GQA (key/value width kvd), any MLP width f and gated MLPs:
//
//	replicated: two norm inputs, QKV input, MLP input: 4sbh elements, and two
//	            dropout masks of sbh bytes
//	split by t: Q, K (sb·(qd+kvd)), V (sb·kvd), output-projection input
//	            (sb·qd), MLP activations (2 or 3 × sbf)
//	scores:     softmax output and dropout output (2·a·s·sKV·b elements) and
//	            the dropout mask (a·s·sKV·b bytes), split by t; none with
//	            flash attention (Dao et al., 2022, §3.1: O(N) memory)
//
// With qd = kvd = h, f = 4h and p = 2 bytes this is exactly the paper's
// sbh·(34 + 5as/h). sKV is the key/value length (s for self-attention).
func (a *Architecture) blockActivation(s, sKV, b, p, t float64, flash, cross bool) float64 {
	h := float64(a.Hidden)
	qd := float64(a.Heads * a.headDim())
	kvd := float64(a.kvHeads() * a.headDim())
	f := float64(a.FFN) * float64(a.expertsPerToken())
	heads := float64(a.Heads)

	mlp := 2 * f
	if a.GatedMLP {
		mlp = 3 * f
	}
	replicated := p*4*s*b*h + 2*s*b*h
	split := p * (s*b*(qd+kvd) + s*b*kvd + s*b*qd + s*b*mlp)
	if !flash {
		split += p*2*heads*s*sKV*b + heads*s*sKV*b
	}
	act := replicated + split/t
	if cross { // cross-attention: its norm input and mask, Q, encoder K and V, projection input, scores
		c := p*s*b*h + s*b*h
		cs := p * (s*b*qd + 2*sKV*b*kvd + s*b*qd)
		if !flash {
			cs += p*2*heads*s*sKV*b + heads*s*sKV*b
		}
		act += c + cs/t
	}
	return act
}

// logitsBytes returns the peak memory of the output logits for s·b
// positions over vocab v: the 16-bit logits, their fp32 copy (Hugging
// Face's causal-LM loss upcasts logits with .float()), the fp32
// log-softmax cross-entropy keeps for backward, and the fp32 gradient of
// the logits that the loss's backward allocates while the others are still
// alive — split over t by Megatron-style vocabulary parallelism. In fp32
// there is no copy: 12 bytes per logit, 14 in 16-bit.
func logitsBytes(s, b, v, p, t float64) float64 {
	per := p + 4 + 4
	if p < 4 {
		per += 4
	}
	return s * b * v * per / t
}

// CNNCheckpointFactor is the share of activations a CNN keeps with
// checkpointing at every √n-th layer: Chen et al., 2016, "Training Deep Nets
// with Sublinear Memory Cost", §4.2, cost O(√n); 2/√50 ≈ 0.28 for the ~50
// layers of a ResNet-50, rounded up to 0.3.
const CNNCheckpointFactor = 0.3

// visionScale returns (size/ref)², the pixel ratio activations and FLOPs
// scale with for convolutional models.
func visionScale(size, ref int) float64 {
	if ref <= 0 || size <= 0 {
		return 1
	}
	r := float64(size) / float64(ref)
	return r * r
}

// vitTokens returns the sequence length of a ViT: patches plus the class token.
func vitTokens(a *Architecture, image int) float64 {
	n := image / max(a.PatchSize, 1)
	return float64(n*n + 1)
}

// encoderLen returns the encoder's sequence length.
func encoderLen(w *Workload) float64 {
	if w.Model.EncoderSeqLen > 0 {
		return float64(w.Model.EncoderSeqLen)
	}
	return float64(w.SeqLen)
}

// countsLogits reports whether training computes vocabulary logits: LMs
// always, encoder-only models only when pre-training (masked LM); a
// fine-tuned encoder has a small classification head instead.
func countsLogits(w *Workload) bool {
	switch w.Model.Family {
	case FamilyDecoder, FamilyEncoderDecoder:
		return true
	case FamilyEncoder:
		return w.Task == TaskTrain
	}
	return false
}

// trainingActivations returns activation bytes per GPU for one micro-batch.
//
// Transformers: per-block memory from blockActivation; with full activation
// checkpointing each block keeps only its input (Korthikanti et al., 2022,
// §4.3: 2sbh per layer at 16-bit) and one block's full set is live while it
// is recomputed. Plus the embedding output and the logits (logitsBytes).
// CNNs and U-Nets: the catalog's per-sample activation bytes at 16-bit,
// scaled by pixel count and precision, times CNNCheckpointFactor when
// checkpointing.
func trainingActivations(w *Workload) float64 {
	a := &w.Model
	b := float64(w.MicroBatch)
	p := activationBytes(w.Precision)
	t := float64(w.TP)
	if !a.HasShape() {
		if a.Family.Transformer() {
			return 0 // shape unknown: caller uses a generic shape
		}
		act := a.ActivationMiBPerSample * MiB * b * visionScale(w.ImageSize, a.ImageSize) * p / 2
		if w.Ckpt() {
			act *= CNNCheckpointFactor
		}
		return act
	}
	h := float64(a.Hidden)
	var s, sEnc float64
	switch a.Family {
	case FamilyViT:
		s = vitTokens(a, w.ImageSize)
		sEnc = s
	default:
		s = float64(w.SeqLen)
		sEnc = s
		if a.Family == FamilyEncoderDecoder {
			sEnc = encoderLen(w)
		}
	}
	flash := w.Flash()
	var stored, peakBlock float64
	switch a.Family {
	case FamilyEncoderDecoder:
		enc := a.blockActivation(sEnc, sEnc, b, p, t, flash, false)
		dec := a.blockActivation(s, s, b, p, t, flash, true)
		if w.Ckpt() {
			stored = float64(a.Layers)*p*sEnc*b*h + float64(a.DecoderLayers)*p*s*b*h + p*sEnc*b*h // decoder also keeps the encoder output
			peakBlock = max(enc, dec)
		} else {
			stored = float64(a.Layers)*enc + float64(a.DecoderLayers)*dec
		}
	default:
		blk := a.blockActivation(s, s, b, p, t, flash, false)
		if w.Ckpt() {
			stored = float64(a.Layers) * p * s * b * h
			peakBlock = blk
		} else {
			stored = float64(a.Layers) * blk
		}
	}
	act := stored + peakBlock + p*max(s, sEnc)*b*h // + embedding output
	if countsLogits(w) {
		act += logitsBytes(s, b, float64(a.Vocab), p, t)
	}
	return act
}

// inferenceActivations returns the forward working set per GPU: one block
// at a time while prefilling all concurrent sequences (the widest point is
// the MLP: input, output and its 2 or 3 intermediate tensors), plus the
// attention scores when attention is not fused, plus fp32 logits for the
// last position of each sequence (generation keeps only those).
func inferenceActivations(w *Workload) float64 {
	a := &w.Model
	p := activationBytes(w.Precision)
	if !a.HasShape() {
		// Upper bound: the training figure (what is kept for backward).
		return a.ActivationMiBPerSample * MiB * float64(w.Sequences) * visionScale(w.ImageSize, a.ImageSize) * p / 2
	}
	t := float64(w.TP)
	n := float64(w.Sequences)
	s := float64(w.ContextLen)
	if a.Family == FamilyViT {
		s = vitTokens(a, w.ImageSize)
	}
	h := float64(a.Hidden)
	f := float64(a.FFN) * float64(a.expertsPerToken())
	inter := 1.0
	if a.GatedMLP {
		inter = 2
	}
	act := p * n * s * (2*h + inter*f/t)
	if !w.Flash() {
		act += p * float64(a.Heads) / t * s * s * n
	}
	v := float64(a.Vocab)
	if a.Family == FamilyViT {
		v = 0
	}
	return act + 4*n*v/t
}

// loraParams returns the adapter parameters: r·(d_in + d_out) for every
// targeted projection of every block (Hu et al., 2021, "LoRA", §4.1: W + BA
// with B ∈ ℝ^{d×r}, A ∈ ℝ^{r×k}); MLP targets count once per expert.
func loraParams(w *Workload) float64 {
	a := &w.Model
	if !a.HasShape() {
		return 0
	}
	r := float64(w.LoRARank)
	h := float64(a.Hidden)
	qd := float64(a.Heads * a.headDim())
	kvd := float64(a.kvHeads() * a.headDim())
	f := float64(a.FFN)
	var attn, mlp float64
	for _, t := range w.LoRATargets {
		switch t {
		case "q":
			attn += r * (h + qd)
		case "k", "v":
			attn += r * (h + kvd)
		case "o":
			attn += r * (qd + h)
		case "gate", "up", "down":
			if t == "gate" && !a.GatedMLP {
				continue
			}
			mlp += r * (h + f)
		}
	}
	layer := attn + float64(a.experts())*mlp
	p := float64(a.Layers) * layer
	if a.Family == FamilyEncoderDecoder {
		p += float64(a.DecoderLayers) * (layer + attn) // decoder cross-attention has q, k, v, o too
	}
	return p
}

// zero3Gathered returns the parameter bytes ZeRO-3/FSDP gathers at once:
// the block being computed and the next one, prefetched (Zhao et al., 2023,
// "PyTorch FSDP", §3.3.2 backward/forward prefetching). Without a shape the
// whole model is one FSDP unit and is gathered whole.
func zero3Gathered(a *Architecture, bytesPerParam float64) float64 {
	if !a.HasShape() {
		return a.ParamCount() * bytesPerParam
	}
	blk := a.layerParams(a.experts())
	if a.Family == FamilyEncoderDecoder {
		blk += a.attnParams() + a.normParams()
	}
	return 2 * blk * bytesPerParam
}

// memory computes the per-GPU breakdown of w (validated, with Defaults);
// gathered receives the ZeRO-3/FSDP working set included in Weights.
func memory(w *Workload, ov *Overhead, gathered *float64) Memory {
	a := &w.Model
	var m Memory
	t := float64(w.TP)
	dp := float64(w.GPUs / w.TP)
	total := a.ParamCount()

	if w.Task == TaskInference {
		linear := a.LinearParams()
		m.Weights = (linear*inferenceLinearBytes(w.Precision) + (total-linear)*min(activationBytes(w.Precision), 2)) / t
		if w.Precision == FP32 {
			m.Weights = total * 4 / t
		}
		m.KVCache = kvCache(w) / t
		m.Activations = inferenceActivations(w)
	} else {
		wb := trainWeightBytes(w.Precision)
		ob := masterBytes(w.Precision) + optimizerStateBytes(w.Optimizer, w.Precision, a)
		stage := w.Strategy.ZeROStage()
		if dp == 1 {
			stage = 0
		}
		shard := func(s int) float64 {
			if stage >= s {
				return dp
			}
			return 1
		}
		var frozen, trainable float64
		switch w.Task {
		case TaskLoRA:
			frozen = total * wb
			trainable = loraParams(w)
		case TaskQLoRA:
			linear := a.LinearParams()
			frozen = linear*NF4BytesPerParam + (total-linear)*2
			trainable = loraParams(w)
		default:
			trainable = total
		}
		weights := (frozen + trainable*wb) / t
		m.Weights = weights / shard(3)
		if stage >= 3 {
			// Shards plus the gathered blocks, never more than the full copy.
			sharded := m.Weights
			m.Weights = min(m.Weights+zero3Gathered(a, wb)/t, weights)
			*gathered = m.Weights - sharded
		}
		m.Gradients = trainable * wb / t / shard(2)
		m.OptimizerStates = trainable * ob / t / shard(1)
		m.Activations = trainingActivations(w)
	}
	*ov = overhead(w, m)
	m.Overhead = ov.Total()
	return m
}

// kvCache returns the KV cache bytes for all concurrent sequences, before
// tensor parallelism: 2 (K and V) · layers · kv_heads · head_dim · context ·
// sequences · bytes (Pope et al., 2022, "Efficiently Scaling Transformer
// Inference", §2.1). Encoder-decoders also cache the cross-attention K and
// V over the encoder length.
func kvCache(w *Workload) float64 {
	a := &w.Model
	if !a.HasShape() || a.Family == FamilyEncoder || a.Family == FamilyViT {
		return 0
	}
	kvd := float64(a.kvHeads() * a.headDim())
	n := float64(w.Sequences) * kvBytes(w.Precision)
	switch a.Family {
	case FamilyEncoderDecoder:
		return 2 * float64(a.DecoderLayers) * kvd * (float64(w.ContextLen) + encoderLen(w)) * n
	}
	return 2 * float64(a.Layers) * kvd * float64(w.ContextLen) * n
}

// overhead returns the named runtime terms for w given the tensor memory m.
func overhead(w *Workload, m Memory) Overhead {
	o := Overhead{
		CUDAContext: CUDAContextBytes,
		Workspace:   CUBLASWorkspaceBytes,
	}
	if w.GPUs > 1 {
		o.Communication = NCCLBufferBytes
	}
	if w.Task.Training() && w.Strategy == DDP && w.GPUs/w.TP > 1 {
		// DDP all-reduces through buckets that copy the gradients unless
		// gradient_as_bucket_view=True, which "can reduce peak memory usage,
		// where the saved memory size will be equal to the total gradients
		// size" (torch.nn.parallel.DistributedDataParallel docs).
		o.Communication += m.Gradients
	}
	o.Fragmentation = FragmentationFraction * (m.Activations + m.Gradients)
	if w.Task == TaskInference {
		o.Fragmentation = FragmentationFraction * m.Activations
	}
	if math.IsNaN(o.Fragmentation) {
		o.Fragmentation = 0
	}
	return o
}
