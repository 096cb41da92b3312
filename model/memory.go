package model

import "math"

// Memory is what one GPU holds, in bytes, by kind: in Estimate.Memory the
// breakdown at the phase of the training step that peaks (Estimate.PeakPhase),
// so the parts add up to what nvidia-smi shows.
type Memory struct {
	// Weights, Gradients and OptimizerStates are the model states of the
	// ZeRO paper (Rajbhandari et al., 2020, §3.1), sharded as the strategy
	// shards them; OptimizerStates include any fp32 master copy.
	Weights         float64
	Gradients       float64
	OptimizerStates float64
	// Gathered is the unsharded parameters ZeRO-3/FSDP hold for the modules
	// being computed and prefetched, beyond the shard.
	Gathered float64
	// CastCache is torch.autocast's 16-bit copies of the fp32 weights,
	// alive from their first use in forward until backward frees them.
	CastCache float64
	// Buffers are communication buckets the engine allocates: DDP's
	// gradient buckets, DeepSpeed's reduce buckets, FSDP's reduce-scatter
	// input.
	Buffers     float64
	Activations float64 // kept for backward, with logits and loss (training), or the forward working set (inference)
	// Temporaries are short-lived step buffers: foreach optimizer
	// intermediates, DeepSpeed's fp32 gradient partition, bitsandbytes'
	// dequantized weight.
	Temporaries float64
	KVCache     float64
	Overhead    float64 // see Overhead
	// HostOffload is what ZeRO-Offload keeps in host RAM instead of GPU
	// memory (Settings.OffloadOptimizer): the optimizer states and the fp32
	// gradient partition the CPU optimizer steps with; with
	// Settings.OffloadParams the 16-bit parameter partition too. Not in Total.
	HostOffload float64
}

// Total returns the sum of the parts, in bytes.
func (m Memory) Total() float64 {
	return m.Tensors() + m.Overhead
}

// Tensors returns what PyTorch's caching allocator has handed out: every
// part but the overhead.
func (m Memory) Tensors() float64 {
	return m.Weights + m.Gradients + m.OptimizerStates + m.Gathered + m.CastCache + m.Buffers + m.Activations + m.Temporaries + m.KVCache
}

// MemoryParts is a Memory folded into the six parts every screen shows
// (the stacked bar, the panel, estimate and the exported [estimate]), so
// that they add up to Total: each finer part of the estimator is counted
// in the model state it belongs to.
type MemoryParts struct {
	Weights         float64 // Weights + Gathered + CastCache: the parameters in every form the GPU holds
	Gradients       float64 // Gradients + Buffers: gradients and the buckets they are reduced through
	OptimizerStates float64 // OptimizerStates + Temporaries: the states and the step's temporaries
	Activations     float64
	KVCache         float64
	Overhead        float64
}

// Parts folds m into the parts the screens show; they sum to Total.
func (m Memory) Parts() MemoryParts {
	return MemoryParts{Weights: m.Weights + m.Gathered + m.CastCache, Gradients: m.Gradients + m.Buffers,
		OptimizerStates: m.OptimizerStates + m.Temporaries, Activations: m.Activations, KVCache: m.KVCache, Overhead: m.Overhead}
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
	// CUDAContextEagerBytes is the CUDA context before PyTorch 1.13, which
	// loaded every kernel of its libraries at the first CUDA call (CUDA's
	// eager module loading): 1343 MiB read with nvidia-smi after one tiny
	// tensor on a V100 with PyTorch 1.10 and CUDA 11.2 (transformers docs,
	// "Model training anatomy": "the kernels alone take up 1.3GB"; the
	// same page as the suite's hf-anatomy cases, a reading, not a fit);
	// pytorch/pytorch#86509 measured 636 MiB with eager loading for a
	// process that used fewer libraries.
	CUDAContextEagerBytes = 1343 * MiB
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
)

// recipeBytes are bytes per trainable parameter of each model state
// under a recipe.
type recipeBytes struct {
	weight, grad, master, state float64 // state: bytes per optimizer state value
}

// bytesFor returns the model-state bytes per trainable parameter of r:
//
//	fp32:       4 weight + 4 gradient, fp32 states
//	autocast:   4 + 4, fp32 states: torch.autocast leaves parameters and
//	            their .grad in fp32 (PyTorch AMP docs, "Autocasting":
//	            parameters are not cast; autocast_mode.cpp casts op inputs)
//	fsdp-mixed: 4 + 4 sharded, fp32 states: FSDP's MixedPrecision keeps
//	            the sharded FlatParameter in its original dtype and casts
//	            gradients back to it after reduce-scatter (torch FSDP docs,
//	            MixedPrecision)
//	deepspeed:  2 + 2, fp32 master 4 and fp32 states — the ZeRO paper's
//	            mixed precision (Rajbhandari et al., 2020, §3.1, K = 12)
//	pure16:     2 + 2, states in bf16 (torch.optim's zeros_like(param))
func bytesFor(r Recipe) recipeBytes {
	switch r {
	case RecipeFP32, RecipeAutocast, RecipeFSDPMixed:
		return recipeBytes{weight: 4, grad: 4, state: 4}
	case RecipeDeepSpeed:
		return recipeBytes{weight: 2, grad: 2, master: 4, state: 4}
	}
	return recipeBytes{weight: 2, grad: 2, state: 2} // pure16
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
func optimizerStateBytes(o Optimizer, state float64, a *Architecture) float64 {
	switch o {
	case Adam, AdamW, AdamWFused:
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
	case AdamW8bit, PagedAdamW8bit:
		return 2 * (1 + 4.0/blockSize8bit)
	case PagedAdamW:
		return 2 * 4 // bitsandbytes optim_bits=32: fp32 states whatever the parameter's dtype (Optimizer2State.init_state)
	}
	return 2 * state
}

// NF4BytesPerParam is NF4 storage per parameter under QLoRA (Dettmers et
// al., 2023, "QLoRA", §3 Double Quantization): 4 bits of weight, plus one
// 8-bit constant per 64-value block and one fp32 constant per 256 blocks:
// 8/64 + 32/(64·256) bits, i.e. 0.127 bits of constants per parameter.
const NF4BytesPerParam = bnb4BitWithDQ

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
//	replicated: two norm inputs, QKV input, MLP input: 4sbh elements, and,
//	            with dropout, two dropout masks of sbh bytes
//	split by t: Q, K (sb·(qd+kvd)), V (sb·kvd), output-projection input
//	            (sb·qd), MLP activations (2 × sbf: GeLU input and output;
//	            4 × sbf gated: activation input and output, up, product)
//	scores:     the softmax output (a·s·sKV·b elements) and, with dropout,
//	            the dropout output and mask, split by t; none with flash
//	            attention (Dao et al., 2022, §3.1: O(N) memory)
//
// With qd = kvd = h, f = 4h, p = 2 bytes and dropout this is exactly the
// paper's sbh·(34 + 5as/h). sKV is the key/value length (s for
// self-attention). Models without dropout (a.Dropout false: Llama and most
// current LMs, attention_dropout 0.0) keep no masks and no dropout output.
func (a *Architecture) blockActivation(s, sKV, b, p, t float64, flash, cross bool) float64 {
	h := float64(a.Hidden)
	qd := float64(a.Heads * a.EffectiveHeadDim())
	kvd := float64(a.EffectiveKVHeads() * a.EffectiveHeadDim())
	f := float64(a.FFN) * float64(a.ActiveExperts())
	heads := float64(a.Heads)
	drop := 0.0
	if a.Dropout {
		drop = 1
	}

	mlp := 2 * f
	if a.GatedMLP {
		// act(gate)·up keeps the activation's input and output, the up
		// projection and their product (the down projection's input).
		mlp = 4 * f
	}
	replicated := p*4*s*b*h + drop*2*s*b*h
	split := p * (s*b*(qd+kvd) + s*b*kvd + s*b*qd + s*b*mlp)
	scores := func(sk float64) float64 {
		if flash {
			return 0
		}
		return p*heads*s*sk*b + drop*(p*heads*s*sk*b+heads*s*sk*b)
	}
	split += scores(sKV)
	act := replicated + split/t
	if cross { // cross-attention: its norm input and mask, Q, encoder K and V, projection input, scores
		c := p*s*b*h + drop*s*b*h
		cs := p*(s*b*qd+2*sKV*b*kvd+s*b*qd) + scores(sKV)
		act += c + cs/t
	}
	return act
}

// normExtra returns what one block's norms save beyond Korthikanti's
// p-byte input per norm element, for n = s·b tokens of width h:
//
//	LayerNorm (F.layer_norm): its input, in the residual dtype: fp32 under
//	    torch.autocast (layer_norm is on autocast's fp32 list,
//	    aten/src/ATen/autocast_mode.cpp KERNEL_CUDA(layer_norm, fp32), and
//	    the residual stream stays fp32 since the embedding output is fp32
//	    and fp32 + 16-bit promotes)
//	RMSNorm as Hugging Face (modeling_llama.py LlamaRMSNorm) and LitGPT
//	    write it: the input upcast to fp32 (kept by pow) and the normalised
//	    tensor in the input dtype (kept by the weight multiply): 4 + 2 bytes
//	    in 16-bit, 4 + 4 under autocast and in fp32 (where the upcast is the
//	    input itself, but the normalised tensor is still a tensor of its own)
func (a *Architecture) normExtra(n, p float64, autocast bool) float64 {
	resid := p
	if autocast {
		resid = 4
	}
	per := resid - p
	if a.Norm == RMSNorm {
		per = 4 + resid - p
	}
	return float64(a.normsPerLayer()) * n * float64(a.Hidden) * per
}

// autocastSoftmax returns what torch.autocast adds to unfused attention:
// softmax runs in fp32 (fp32_set_opt_dtype in autocast_mode.cpp), so its
// saved output takes 4 bytes instead of 2.
func (a *Architecture) autocastSoftmax(s, sKV, b, t float64, flash, cross bool) float64 {
	if flash {
		return 0
	}
	x := 2 * float64(a.Heads) * s * sKV * b / t
	if cross {
		x *= 2
	}
	return x
}

// softmaxInput returns what unfused attention's softmax keeps beside its
// output on PyTorch before 1.11 (Workload.Torch before 1.11): its input, the
// masked scores, a·s·sKV·b elements split by t, in the dtype the softmax
// output is counted in (p; fp32 under torch.autocast, where Hugging Face's
// additive attention mask is cast to the fp32 parameters' dtype,
// modeling_utils.py ModuleUtilsMixin.get_extended_attention_mask, and
// promotes the 16-bit scores). Source: pytorch/pytorch#64000, "Backward
// formulas for softmax/logsoftmax reference self, even though self is not
// required ... we retain reference to self and use more memory than
// needed", fixed by #65242 (relanded as #66018, October 2021) in 1.11,
// which passes self's dtype instead (transformers pytorch_utils.py
// softmax_backward_data: self before 1.11, self.dtype after). Flash
// attention saves no scores.
func (a *Architecture) softmaxInput(s, sKV, b, p, t float64, flash, cross, autocast bool) float64 {
	if flash {
		return 0
	}
	if autocast {
		p = 4
	}
	x := p * float64(a.Heads) * s * sKV * b / t
	if cross {
		x *= 2
	}
	return x
}

// autocastRecasts returns the bytes torch.autocast adds to one block, for
// n = s·b tokens (nEnc encoder tokens feeding cross-attention), by casting
// the same fp32 tensor once per projection. cached_cast
// (aten/src/ATen/autocast_mode.cpp) reuses a cast only when its argument
// is an fp32 leaf that requires grad and is not a view — the weights; any
// other fp32 argument goes through arg.to(to_type) anew for every op. A
// block's norm outputs are fp32 under autocast (layer_norm is on the fp32
// list; normExtra), so separate query, key and value Linears each save
// their own 16-bit copy of the QKV input where blockActivation counts one:
// 2 more copies, 2·n·h·2 = 4nh bytes; separate gate and up projections of a
// gated MLP 1 more, 2nh bytes; a cross-attention's separate key and value
// projections each save a copy of the fp32 encoder output, which is
// otherwise counted once for all layers: 2·nEnc·h·2 bytes (one copy if
// fused). Fused projections (Architecture.FusedQKV, FusedGateUp; LitGPT
// always fuses QKV, litgpt/model.py CausalSelfAttention.qkv, and keeps
// LLaMAMLP's fc_1 and fc_2 apart) cast once.
// LoRA's frozen projections save no input (autograd saves a matmul input
// only for the weight's gradient); each adapted projection's lora_A saves
// its own cast of the input when adapter dropout is nn.Identity, and with
// dropout loraDropout already counts one input per adapter. The copies are
// the replicated (not tensor-parallel) input.
func autocastRecasts(w *Workload, n, nEnc float64, cross bool) float64 {
	a := &w.Model
	fusedQKV := a.FusedQKV || w.Trainer == TrainerLitGPT
	// Copies of the QKV input, the MLP input and, per decoder layer, the
	// encoder output that the block's projections save.
	qkv, mlp, kv := 3.0, 1.0, 2.0
	if fusedQKV {
		qkv, kv = 1, 1
	}
	if a.GatedMLP && !a.FusedGateUp {
		mlp = 2
	}
	if w.Task == TaskLoRA {
		if w.LoRADropout > 0 {
			return 0
		}
		qkv = min(countTargets(w.LoRATargets, "q", "k", "v"), qkv)
		if a.GatedMLP {
			mlp = min(countTargets(w.LoRATargets, "gate", "up"), mlp)
		}
		kv = 0 // the catalog's LoRA targets are self-attention and MLP projections
	}
	x := 2 * n * float64(a.Hidden) * (max(qkv-1, 0) + max(mlp-1, 0))
	if cross {
		x += 2 * nEnc * float64(a.Hidden) * kv
	}
	return x
}

// countTargets returns how many of names are in targets.
func countTargets(targets []string, names ...string) float64 {
	var c float64
	for _, t := range targets {
		for _, n := range names {
			if t == n {
				c++
			}
		}
	}
	return c
}

// logitsBytes returns the memory of the output logits and loss for s·b
// positions over vocab v at p bytes, split over t by Megatron-style
// vocabulary parallelism: fwd is what is alive as the loss is computed at
// the forward's end; bwd what the loss backward adds; transient the part
// of fwd no tensor outlives the loss function by (saved by no autograd
// node); own the logits tensor the model returns, which autograd saves
// for no loss (torch derivatives.yaml: _log_softmax saves its result,
// nll_loss its input, the log-softmax; Linear saves its input, not its
// output; data/testdata/calibration/saved/outputs_kept.py measured it,
// "saved_for_loss": false), so it is alive in backward only while the
// training loop holds it (Workload.Outputs). The same script counts the
// bytes alive after every op on CPU ("loss_liveness"): per bf16 logit,
// hf-fp32 10 at the loss, 4 at backward start and 12 at the loss
// backward's peak with the outputs dropped, 6 and 14 kept; native 4, 2
// and 6, kept 4 and 8; fp32 logits 8, 4 and 12, kept 8 and 16:
// fwd; fwd − transient − own, with own added back when kept; and that
// plus bwd (TestLogitsLivenessFixture).
//
//	hf-fp32: the logits (p), their fp32 copy (Hugging Face loss_utils.py
//	         ForCausalLMLoss: logits = logits.float(), a local of the loss
//	         function) unless already fp32, the fp32 log-softmax
//	         cross_entropy saves (4); backward adds nll_loss's fp32
//	         gradient of the log-softmax and log_softmax's fp32 gradient of
//	         the logits (4 + 4) while the log-softmax is alive: 14 B per
//	         logit in 16-bit at backward with the logits held, 12 without.
//	         The cast's backward (_to_copy_backward) then writes the p-byte
//	         gradient while the fp32 one is alive, 4 + p, after the
//	         log-softmax and its gradient are freed: below that peak.
//	fused:   a cross-entropy kernel that reads the p-byte logits and writes
//	         the gradient in place (flash-attention csrc/xentropy): p, kept
//	         by the kernel itself
//	chunked: fused linear + cross-entropy over ChunkedLossChunks chunks
//	         (Liger FusedLinearCrossEntropy, Cut Cross-Entropy): one chunk
//	         of logits in p bytes and fp32 plus its fp32 gradient
//	native:  torch cross_entropy in the logits' dtype: the logits and the
//	         log-softmax output it saves (2p); backward adds nll_loss's
//	         gradient of the log-softmax and the logits' gradient (2p).
//	         Chunking the head's output (LitGPT lm_head_chunk_size) does
//	         not lower this: autograd runs every chunk's loss backward
//	         before any head matmul (nodes with higher sequence numbers
//	         first, torch/csrc/autograd/engine.cpp ReadyQueue), so all
//	         chunks' gradients are live together.
func logitsBytes(s, b, v, p, t float64, loss Loss) (fwd, bwd, transient, own float64) {
	n := s * b * v / t
	switch loss {
	case LossNative:
		return n * 2 * p, n * 2 * p, 0, n * p
	case LossFused:
		return n * p, 0, 0, 0
	case LossChunked:
		c := n / ChunkedLossChunks
		return c * (p + 4), c * 4, 0, 0
	}
	if p < 4 {
		return n * (p + 4 + 4), n * 8, n * 4, n * p
	}
	return n * (p + 4), n * 8, 0, n * p
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
// fine-tuned encoder has a small classification head instead, and a
// classification Head replaces any model's LM head (see headLogits).
func countsLogits(w *Workload) bool {
	if w.Model.Head != "" {
		return false
	}
	switch w.Model.Family {
	case FamilyDecoder, FamilyEncoderDecoder:
		return true
	case FamilyEncoder:
		return w.Task == TaskTrain
	}
	return false
}

// headLogits returns what a classification Head's logits and loss hold
// for s·b positions at p bytes over t, as savedActivations' logits,
// lossBwd, logitsGone and logitsKept:
//
//   - token classification: the LM loss over Labels classes (transformers
//     loss/loss_utils.py ForTokenClassification: "logits =
//     logits.float()", then fixed_cross_entropy, as ForCausalLMLoss), so
//     logitsBytes over Labels for the workload's loss, the model returning
//     the s·b·Labels logits;
//   - sequence classification: the score's s·b·Labels logits, which no
//     autograd node saves (modeling_layers.py
//     GenericForSequenceClassification: "pooled_logits =
//     logits[torch.arange(batch_size, device=logits.device),
//     last_non_pad_token]"; the indexing's backward keeps the indices and
//     writes a gradient of the full logits' shape), and cross_entropy on
//     the b·Labels pooled logits in their dtype (ForSequenceClassificationLoss:
//     "fixed_cross_entropy(pooled_logits.view(-1, num_labels), ...)"):
//     logitsBytes' native loss over b positions. The model returns the
//     pooled logits.
//
// With two labels either is kilobytes: what the head changes is that no
// vocabulary logits exist.
func headLogits(w *Workload, s, b, p, t float64) (fwd, bwd, gone, kept float64) {
	c := float64(w.Model.Labels)
	var transient, own float64
	if w.Model.Head == HeadTokenClassification {
		fwd, bwd, transient, own = logitsBytes(s, b, c, p, t, w.LossImpl())
		if w.LossImpl() != LossChunked {
			kept = s * b * c * p / t
		}
	} else {
		fwd, bwd, transient, own = logitsBytes(1, b, c, p, t, LossNative)
		all := s * b * c * p / t
		fwd, bwd, transient = fwd+all, bwd+all, transient+all
		kept = b * c * p / t
	}
	gone = transient
	if w.Outputs != OutputsKept {
		gone, kept = gone+own, 0 // the loop dropped them before backward
	}
	return fwd, bwd, gone, kept
}

// savedActivations is what one micro-batch keeps for backward, per GPU.
type savedActivations struct {
	blocks  float64 // embedding output and the blocks' saved tensors
	logits  float64 // logits and loss tensors alive at the end of forward
	lossBwd float64 // the logits' gradient the loss backward adds
	// logitsGone is the part of logits freed before backward starts: the
	// loss's own temporaries and, unless the loop keeps its outputs, the
	// logits (logitsBytes).
	logitsGone float64
	// logitsKept is what of the logits is still alive once the loss
	// backward is done: the returned logits when the loop keeps its
	// outputs (OutputsKept), nothing otherwise; the loss's saved
	// log-softmax and its gradients are freed by then (data/testdata/
	// calibration/saved/outputs_kept.json, loss_liveness: after the loss
	// backward 2 B per bf16 logit kept, 0 dropped).
	logitsKept float64
	// blockGrad is the gradients of one block's saved tensors, live while
	// backward runs through it.
	blockGrad float64
	// recompute is one block's full set with activation checkpointing:
	// rebuilt when backward reaches the block (torch.utils.checkpoint
	// recomputes on unpacking its saved tensors), after the loss and head
	// backward have freed the logits and their gradient.
	recompute float64
	// ckptInputs is the checkpointed block inputs within blocks (0
	// without checkpointing), ckptOne the largest of them: what
	// offloadActivations moves to the host and brings back one at a time.
	ckptInputs, ckptOne float64
	// cache is what the key/value cache the model returns keeps beyond
	// the saved tensors (cacheHeld): alive to the end of forward, and
	// freed with the output before backward in Hugging Face's Trainer.
	cache float64
	// kept is what the outputs hold once autograd has freed its saved
	// tensors (outputsHeld); counted only when the loop keeps them
	// (OutputsKept).
	kept float64
}

// cacheHeld returns the bytes per GPU that the key/value cache a Hugging
// Face causal LM returns in training keeps alive beyond what autograd
// saves, for s·b tokens at p bytes over t. The models return it whenever
// config.use_cache is set (the default) and gradient checkpointing is off
// (modeling_gpt2.py GPT2Model.forward turns use_cache off only for
// checkpointing; GPT2Attention: present = (key, value)). Under eager
// attention the cache holds tensors that autograd does not save, because
// torch.matmul saves reshaped copies of permuted heads (at::matmul folds
// the batch dimensions with reshape, a copy for a permuted tensor):
//
//   - GPT-2: key and value are views of the fused c_attn output (split,
//     then _split_heads' view and permute), so the cache keeps the whole
//     c_attn output, 3·h elements per token per layer
//   - GPT-NeoX: the value is a permuted view of query_key_value's output
//     (modeling_gpt_neox.py, the v4.40-era eager code): 3·h again
//   - Llama and the families built from it (eager_attention_forward; the
//     cache entry is the rotated key and the value_states view before
//     repeat_kv): 2·kvd, the key and value projections' width
//
// Counted with saved_tensors_hooks against the returned present
// (data/testdata/calibration/saved/present_alive.py: 3.0, 3.0 and 2·kvd/h
// per token, in units of h; OPT's contiguous key and value are the saved
// storages: 0). Under SDPA the kernel saves those views: nothing more,
// except in GPT-NeoX (GPTNeoXSdpaAttention, modeling_gpt_neox.py
// @006bd23dd0ce): the cache's key is the fp32 rotated key (the fp32 rotary
// tables promote it) and the kernel saves its 16-bit cast, so a 16-bit
// model's cache keeps 4·kvd bytes per token that nothing saves
// (data/testdata/calibration/saved/sdpa_saved.py: 4.0 B per token per h).
func cacheHeld(w *Workload, s, b, p, t float64) float64 {
	a := &w.Model
	if w.Trainer != TrainerHF || w.Ckpt() || !a.HasShape() {
		return 0
	}
	if w.Flash() {
		if a.ModelType == "gpt_neox" && p < 4 {
			return float64(a.Layers) * 4 * float64(a.EffectiveKVHeads()*a.EffectiveHeadDim()) * s * b / t
		}
		return 0
	}
	var per float64
	switch {
	case a.ModelType == "gpt2" || a.ModelType == "gpt_neox":
		per = 3 * float64(a.Hidden)
	case upcastSoftmaxTypes[a.ModelType]:
		per = 2 * float64(a.EffectiveKVHeads()*a.EffectiveHeadDim())
	}
	return float64(a.Layers) * per * s * b * p / t
}

// outputsHeld returns the bytes per GPU of what a training forward
// returns, for s·b tokens at p bytes over t, that stay alive as long as the
// loop holds the output object after backward has freed autograd's saved
// tensors (OutputsKept: through the optimizer step and the next forward):
//
//   - the logits as the LM head returns them, s·b·v at p bytes (the loss's
//     fp32 copies are locals of the loss function; a chunked loss returns
//     no full logits: 0), or as a classification Head returns them
//     (headLogits: s·b·Labels for token classification, b·Labels pooled
//     for sequence classification).
//   - a Hugging Face causal LM's returned cache (cacheHeld's conditions:
//     use_cache, no checkpointing; eager or SDPA alike, since after
//     backward nothing shares its storages any more), the whole storages
//     its key and value reference, per token per layer: GPT-2 3h (both
//     are views of c_attn's output); GPT-NeoX query_key_value's 3h output
//     (the value's view) at p bytes and the rotated key, h at 4 bytes (the
//     v4.40-era code's fp32 rotary tables promote it); any other decoder
//     2·kvd, its own key and value (OPT and BioGPT make them contiguous;
//     Llama's rotated key and v_proj's output).
//
// Counted with the same blocks as cacheHeld (data/testdata/calibration/
// saved/outputs_kept.py, pure bf16: 3.0, 5.0, 2.0 and 2·kvd/h per token
// in units of 2h bytes), which also checks that the logits a head returns
// under autocast are 16-bit and saved by no loss node, and that a plain
// loop's previous logits are alive inside the next forward. The previous step's outputs are assumed the same shape as this
// step's (fixed-length batches; with variable lengths an upper bound).
func outputsHeld(w *Workload, s, b, p, t float64) float64 {
	a := &w.Model
	var out float64
	if countsLogits(w) && w.LossImpl() != LossChunked {
		out = s * b * float64(a.Vocab) * p / t
	} else if a.Head != "" {
		_, _, _, out = headLogits(w, s, b, p, t) // w.Outputs is OutputsKept here
	}
	if w.Trainer != TrainerHF || w.Ckpt() || a.Family != FamilyDecoder || !a.HasShape() {
		return out
	}
	h := float64(a.Hidden)
	per := 2 * float64(a.EffectiveKVHeads()*a.EffectiveHeadDim()) * p // bytes per token per layer
	switch a.ModelType {
	case "gpt2":
		per = 3 * h * p
	case "gpt_neox":
		per = 3*h*p + 4*h
	}
	return out + float64(a.Layers)*per*s*b/t
}

// trainingActivations returns activation bytes per GPU for one micro-batch.
//
// Transformers: per-block memory from blockActivation, plus normExtra and,
// under the autocast and fsdp-mixed recipes, autocastSoftmax and
// autocastRecasts, before PyTorch 1.11 softmaxInput; with full activation
// checkpointing each block keeps only its input (Korthikanti et al., 2022,
// §4.3: 2sbh per layer at 16-bit, fp32 under autocast) and one block's full
// set is live while it is recomputed. Plus the embedding output and the
// logits (logitsBytes). A frozen 16-bit base (LoRA) does not save the
// inputs of projections without adapters — autograd saves a matmul input
// only when the weight's gradient is needed — while bitsandbytes' 4-bit
// matmul saves its 16-bit input whatever needs a gradient
// (bitsandbytes/autograd/_functions.py MatMul4Bit.forward: ctx.tensors =
// (A, B)), so QLoRA keeps them all.
// CNNs and U-Nets: the catalog's per-sample activation bytes at 16-bit,
// scaled by pixel count and precision, times CNNCheckpointFactor when
// checkpointing.
func trainingActivations(w *Workload, r Recipe) savedActivations {
	a := &w.Model
	b := float64(w.MicroBatch)
	p := activationBytes(w.Precision)
	if r == RecipeFP32 || kbitFP32(w, r) {
		p = 4 // fp32 embeddings and norms, no autocast: an fp32 stream
	}
	t := float64(w.TP)
	if !a.HasShape() {
		if a.Family.Transformer() {
			return savedActivations{} // shape unknown: caller uses a generic shape
		}
		act := a.ActivationMiBPerSample * MiB * b * visionScale(w.ImageSize, a.ImageSize) * p / 2
		if w.Ckpt() {
			act *= CNNCheckpointFactor
		}
		return savedActivations{blocks: act}
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
	autocast := r == RecipeAutocast || r == RecipeFSDPMixed
	resid := p // residual stream and checkpointed block inputs
	if autocast {
		resid = 4
	}
	block := func(sq, sk float64, cross bool) float64 {
		x := a.blockActivation(sq, sk, b, p, t, flash, cross) - p*frozenUnsaved(w, sq*b)/t + a.normExtra(sq*b, p, autocast) + loraDropout(w, sq*b, p)
		if cross {
			x += a.normExtra(sq*b, p, autocast) / float64(a.normsPerLayer())
		}
		if autocast {
			x += a.autocastSoftmax(sq, sk, b, t, flash, cross) + autocastRecasts(w, sq*b, sEnc*b, cross) // cross-attention casts the encoder output
		}
		x += w.implementationSaves(sq, sk, b, p, t, flash, cross, autocast)
		if !w.torchAtLeast(1, 11) {
			x += a.softmaxInput(sq, sk, b, p, t, flash, cross, autocast)
		}
		return x
	}
	var stored, peakBlock, ckptInputs, ckptOne float64
	switch a.Family {
	case FamilyEncoderDecoder:
		enc := block(sEnc, sEnc, false)
		dec := block(s, s, true)
		if w.Ckpt() {
			ckptInputs = float64(a.Layers)*resid*sEnc*b*h + float64(a.DecoderLayers)*resid*s*b*h
			ckptOne = resid * max(sEnc, s) * b * h
			stored = ckptInputs + resid*sEnc*b*h // decoder also keeps the encoder output
			peakBlock = max(enc, dec)
		} else {
			stored = float64(a.Layers)*enc + float64(a.DecoderLayers)*dec
		}
	default:
		blk := block(s, s, false)
		if w.Ckpt() {
			stored = float64(a.Layers) * resid * s * b * h
			ckptInputs, ckptOne = stored, resid*s*b*h
			peakBlock = blk
		} else {
			stored = float64(a.Layers) * blk
		}
	}
	out := savedActivations{blocks: stored + resid*max(s, sEnc)*b*h, recompute: peakBlock, cache: cacheHeld(w, s, b, p, t), ckptInputs: ckptInputs, ckptOne: ckptOne} // + embedding output
	if w.Outputs == OutputsKept {
		out.kept = outputsHeld(w, s, b, p, t)
	}
	// Backward through a block allocates the gradients of its saved
	// tensors while they are alive: one block's worth at a time.
	out.blockGrad = a.blockActivation(s, s, b, p, t, flash, false)
	if countsLogits(w) {
		var transient, own float64
		out.logits, out.lossBwd, transient, own = logitsBytes(s, b, float64(a.Vocab), p, t, w.LossImpl())
		out.logitsGone = transient
		if w.Outputs != OutputsKept {
			out.logitsGone += own // the loop dropped them before backward
		} else if w.LossImpl() != LossChunked {
			out.logitsKept = s * b * float64(a.Vocab) * p / t // outputsHeld's logits
		}
	} else if a.Head != "" {
		out.logits, out.lossBwd, out.logitsGone, out.logitsKept = headLogits(w, s, b, p, t)
	}
	return out
}

// loraDropout returns what adapter dropout keeps per block for n = s·b
// tokens: PEFT's LoRA layer computes lora_B(lora_A(dropout(x))) with its
// own nn.Dropout per adapted module (peft/tuners/lora/layer.py), so each
// target keeps a p-byte dropout output and a 1-byte mask of its input
// width. LoRADropout 0 is nn.Identity: nothing.
func loraDropout(w *Workload, n, p float64) float64 {
	if w.LoRADropout == 0 || !w.Task.Adapters() {
		return 0
	}
	a := &w.Model
	h := float64(a.Hidden)
	var in float64
	for _, t := range w.LoRATargets {
		switch t {
		case "q", "k", "v", "gate", "up":
			if t == "gate" && !a.GatedMLP {
				continue
			}
			in += h
		case "o":
			in += float64(a.Heads * a.EffectiveHeadDim())
		case "down":
			in += float64(a.FFN)
		}
	}
	return n * in * (p + 1)
}

// frozenUnsaved returns the elements per block that a frozen 16-bit base
// does not save for n = s·b tokens (LoRA only; see trainingActivations):
// the output-projection input without an "o" adapter, the MLP input
// without "gate"/"up" adapters and the down-projection input without a
// "down" adapter. The QKV input is the norm's output, which a q/k/v
// adapter saves; it is dropped only when none of them is adapted.
func frozenUnsaved(w *Workload, n float64) float64 {
	if w.Task != TaskLoRA {
		return 0
	}
	a := &w.Model
	has := func(name string) bool {
		for _, t := range w.LoRATargets {
			if t == name {
				return true
			}
		}
		return false
	}
	var x float64
	if !has("q") && !has("k") && !has("v") {
		x += n * float64(a.Hidden)
	}
	if !has("o") {
		x += n * float64(a.Heads*a.EffectiveHeadDim())
	}
	if !has("gate") && !has("up") {
		x += n * float64(a.Hidden)
	}
	if !has("down") {
		x += n * float64(a.FFN) * float64(a.ActiveExperts())
	}
	return x
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
	f := float64(a.FFN) * float64(a.ActiveExperts())
	inter := 1.0
	if a.GatedMLP {
		inter = 2
	}
	act := p * n * s * (2*h + inter*f/t)
	if !w.Flash() {
		act += p * float64(a.Heads) / t * s * s * n
	}
	v := float64(a.Vocab)
	switch {
	case a.Head != "":
		v = float64(a.Labels) // a classifier's scores, not the vocabulary's
	case a.Family == FamilyViT:
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
	qd := float64(a.Heads * a.EffectiveHeadDim())
	kvd := float64(a.EffectiveKVHeads() * a.EffectiveHeadDim())
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

// DeepSpeed ZeRO defaults (deepspeed/runtime/zero/config.py,
// DeepSpeedZeroConfig, at commit 38327e0 of microsoft/DeepSpeed), which
// apply because `gpuplan export` writes a ds_config without bucket sizes.
const (
	// DSReduceBucketSize is reduce_bucket_size, pp_int(5e8) elements:
	// stage_1_and_2.py backward() allocates one ipg_buffer of that many
	// elements in the 16-bit dtype when contiguous_gradients (default
	// True), two when overlap_comm (default False below stage 3);
	// stage3.py allocates __ipg_bucket_flat_buffer of the same size.
	DSReduceBucketSize = 5e8
	// DSPrefetchBucketSize is stage3_prefetch_bucket_size, pp_int(5e7)
	// elements fetched ahead of use.
	DSPrefetchBucketSize = 5e7
	// DSMaxLiveParameters is stage3_max_live_parameters, pp_int(1e9): the
	// most gathered parameters resident per GPU before release.
	DSMaxLiveParameters = 1e9
	// DSMaxReuseDistance is stage3_max_reuse_distance, pp_int(1e9)
	// elements: a gathered parameter used again within that many elements
	// of the module trace is not released (see dsReuseKept).
	DSMaxReuseDistance = 1e9
	// DSSubGroupSize is sub_group_size, pp_int(1e9): ZeRO-3 steps the
	// optimizer one sub-group of its partition at a time, with an fp32
	// gradient of that size.
	DSSubGroupSize = 1e9
)

// largestModule returns the parameters of the biggest single module: the
// embedding or LM head, or one MLP matrix (per expert) — what ZeRO-3 must
// gather at once whatever its bucket sizes.
func (a *Architecture) largestModule() float64 {
	if !a.HasShape() {
		return a.ParamCount()
	}
	h := float64(a.Hidden)
	return max(float64(a.Vocab)*h, h*float64(a.FFN), h*float64(a.Heads*a.EffectiveHeadDim()))
}

// blockParams returns one block's parameters (a decoder block of an
// encoder-decoder adds cross-attention).
func (a *Architecture) blockParams() float64 {
	blk := a.largestLayerParams()
	if a.Family == FamilyEncoderDecoder {
		blk += a.attnParams() + a.normParams()
	}
	return blk
}

// gatheredParams returns the unsharded parameters ZeRO-3/FSDP hold beyond
// the shard, in parameters, for recipe r:
//
//	FSDP: the block being computed and the next one, prefetched
//	      (backward_prefetch=BACKWARD_PRE and limit_all_gathers let two
//	      all-gathers be in flight; Zhao et al., 2023, "PyTorch FSDP",
//	      §3.3.2), plus the root unit (embeddings, head, final norm), which
//	      FSDP does not reshard after forward (torch FSDP docs,
//	      reshard_after_forward / FULL_SHARD root behaviour).
//	ZeRO-3: the module being computed, whole, plus up to
//	      DSPrefetchBucketSize elements prefetched while the gathered
//	      stay within DSMaxLiveParameters: _fetch_sub_module_impl
//	      all-gathers every parameter of the current submodule
//	      unconditionally, and only the prefetch is bounded, by
//	      max_params_to_prefetch = min(__max_n_available_params -
//	      __n_available_params, __prefetch_bucket_sz) (deepspeed/runtime/
//	      zero/partitioned_param_coordinator.py, at edaa722 of
//	      deepspeedai/DeepSpeed). So a module larger than the limit (a
//	      250,880 × 4,096 embedding, 1.03e9 parameters, against the 1e9
//	      default) is gathered whole and nothing is prefetched beside it;
//	      and
//	      where backward turns (the end of forward, and with checkpointing
//	      each block's recomputed forward), the modules reused within
//	      DSMaxReuseDistance, which stay gathered (dsReuseKept), the
//	      prefetch then filling up to DSMaxLiveParameters.
//
// elem is DeepSpeed's elements per parameter (ds_numel counts the stored
// tensor: 1 for 16- and 32-bit weights, about 1/4 for bitsandbytes 4-bit
// packed into bnb_4bit_quant_storage bf16). Without a shape the whole
// model is one unit and is gathered whole.
func gatheredParams(a *Architecture, r Recipe, ckpt bool, elem float64) float64 {
	if !a.HasShape() {
		return a.ParamCount()
	}
	if r == RecipeDeepSpeed {
		live, prefetch := DSMaxLiveParameters/elem, DSPrefetchBucketSize/elem
		big := a.largestModule()
		g := big + max(0, min(prefetch, a.blockParams(), live-big))
		if blk := a.dsBlockModules(); blk != nil {
			// The turn from forward to backward: the last blocks and the head.
			var tail []float64
			for n := 0; n < a.Layers && sum(tail) < DSMaxReuseDistance/elem; n++ {
				tail = append(tail, blk...)
			}
			if h := a.headParams(); h > 0 {
				tail = append(tail, h)
			}
			kept := dsReuseKept(tail, DSMaxReuseDistance/elem)
			if ckpt {
				kept = max(kept, dsReuseKept(blk, DSMaxReuseDistance/elem))
			}
			g = max(g, kept+max(0, min(prefetch, live-kept)))
		}
		return g
	}
	root := a.ParamCount() - float64(a.TotalLayers())*a.layerParams(a.experts())
	if a.Family == FamilyEncoderDecoder {
		root -= float64(a.DecoderLayers) * (a.attnParams() + a.normParams())
	}
	return 2*a.blockParams() + max(root, 0)
}

// dsBlockModules returns the parameters of one block's linear modules in
// forward order (q, k, v, o, then gate, up, down or fc1, fc2), the units
// ZeRO-3 fetches and releases one submodule at a time; nil for shapes
// whose modules are not these (MoE, latent attention, encoder-decoder).
func (a *Architecture) dsBlockModules() []float64 {
	if a.Experts > 1 || a.KVLoRARank > 0 || a.Family == FamilyEncoderDecoder || a.FFN == 0 {
		return nil
	}
	h := float64(a.Hidden)
	qd := float64(a.Heads * a.EffectiveHeadDim())
	kvd := float64(a.EffectiveKVHeads() * a.EffectiveHeadDim())
	ff := h * float64(a.FFN)
	m := []float64{h * qd, h * kvd, h * kvd, qd * h}
	if a.GatedMLP {
		return append(m, ff, ff, ff)
	}
	return append(m, ff, ff)
}

// dsReuseKept returns the parameters ZeRO-3 keeps gathered where backward
// turns, for mods, the modules before the turn in forward order, and
// dist, stage3_max_reuse_distance in parameters. Releasing a module,
// PartitionedParameterCoordinator.__params_to_release walks the module
// trace from the next step and keeps every parameter it meets until the
// parameters traversed reach max_reuse_dist_in_numel (deepspeed/runtime/
// zero/partitioned_param_coordinator.py). Between a module's forward and
// its backward lie the modules after it twice (their forward, then their
// backward in reverse), so module j stays when 2·Σ_{i>j} mods[i] < dist.
func dsReuseKept(mods []float64, dist float64) float64 {
	kept, after := 0.0, 0.0
	for j := len(mods) - 1; j >= 0 && 2*after < dist; j-- {
		kept += mods[j]
		after += mods[j]
	}
	return kept
}

func sum(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t
}

// Phase is a point of the training step where memory peaks.
type Phase string

// Phases of a step, in order.
const (
	PhaseForward  Phase = "forward"   // end of forward: saved activations and logits at their largest
	PhaseBackward Phase = "backward"  // backward: the loss gradient, gradients and reduce buckets
	PhaseStep     Phase = "optimizer" // optimizer step: states, gradients and step temporaries
	PhaseInfer    Phase = "inference" // inference has one phase
)

// PhaseMemory is the memory live at one phase.
type PhaseMemory struct {
	Phase  Phase
	Memory Memory // parts live at this phase, with the overhead
}

// phases computes the per-GPU memory at each phase of the step of w
// (validated, with Defaults); the first one with the largest total peaks.
//
// Forward end: weights, optimizer states, cast cache, gathered units,
// saved activations and logits, and gradients only when they persist
// across micro-batches (gradient accumulation, DeepSpeed's contiguous
// gradient partition; otherwise optimizer.zero_grad() frees them,
// set_to_none=True being PyTorch's default since 2.0), or when the loop
// zeroes them only after the forward pass (ZeroGradBeforeBackward): the
// previous step's gradients are then alive at the forward peak, and
// freed, from PyTorch 2.0, by the zero_grad just before backward.
// A loop that keeps its outputs (OutputsKept) also holds the previous
// step's outputs (outputsHeld) at the forward end.
// Backward: the larger of its start (the saved activations with the
// larger of the loss backward — what of the logits outlives the loss
// function plus the gradients it adds — and one block's backward, with
// only kept logits left; the reduce buckets; with kept outputs, the cache
// they hold beyond the saved tensors) and its end (all gradients,
// buckets, no activations but kept outputs).
// Optimizer step: model states plus step temporaries (and kept outputs).
func phases(w *Workload, out *[3]PhaseMemory, states *Memory) int {
	s := newStepShape(w)
	base, stepGrads := modelStates(w, &s)
	castCache := castCacheBytes(w, &s)
	*states = base
	act := trainingActivations(w, s.r)
	persistBuf, bwdBuf := commBuffers(w, &s, &base)
	stepTemp := stepTemporaries(w, &s)
	if w.OptimizerInBackward {
		base.Gradients, stepGrads, stepTemp = optimizerInBackward(w, &s)
		*states = base
	}
	if w.OffloadParams && w.Strategy == FSDP {
		fsdpCPUOffload(w, &s, &base, &stepGrads, &stepTemp)
		*states = base
	}
	if w.OffloadActivations {
		base.HostOffload += offloadActivations(&act)
		*states = base
	}

	if w.OffloadOptimizer {
		// ZeRO-Offload (Ren et al., 2021, "ZeRO-Offload", §4.1): the fp32
		// master, the moments and the fp32 gradients the step reads live on
		// the CPU; DeepSpeedZeroOptimizer puts single_partition_of_fp32_groups
		// on self.device, "cpu" with cpu_offload (deepspeed/runtime/zero/
		// stage_1_and_2.py). The 16-bit weights and gradients stay on the GPU.
		base.HostOffload += base.OptimizerStates + stepTemp
		base.OptimizerStates, stepTemp = 0, 0
		*states = base
	}
	// persistGrads: gradients held from one backward to the next; the
	// previous step's are also alive through this forward when the loop
	// zeroes them only before backward.
	persistGrads := w.GradAccum > 1 || s.r == RecipeDeepSpeed || !w.torchAtLeast(2, 0)
	fwd := base
	fwd.CastCache = castCache
	fwd.Activations = act.blocks + act.logits
	fwd.Buffers = persistBuf
	fwd.Temporaries = s.quantWork
	if !persistGrads && w.ZeroGrad != ZeroGradBeforeBackward {
		fwd.Gradients = 0
	}
	bwdStart := fwd
	// The output, with its cache, is dropped before backward (the
	// Trainer) or kept through it (OutputsKept); a loop that keeps it
	// still holds the previous step's while this forward runs.
	fwd.Activations += act.cache + act.kept
	if !persistGrads {
		bwdStart.Gradients = 0 // zero_grad(set_to_none=True) before backward
	}
	// Backward: the loss backward with what of the logits is alive at its
	// start, then each block's with only the kept logits left of them.
	bwdStart.Activations = act.blocks + max(act.logits-act.logitsGone+act.lossBwd, act.blockGrad+act.logitsKept)
	if w.Outputs == OutputsKept {
		bwdStart.Activations += act.cache
	}
	if act.recompute > 0 {
		// Checkpointed: the loss backward with the logits alive, then each
		// block recomputed with its gradients, the logits gone unless the
		// loop keeps them (kept is the logits alone: no cache when
		// checkpointing).
		bwdStart.Activations = act.blocks + max(act.logits-act.logitsGone+act.lossBwd, act.recompute+act.blockGrad+act.kept)
	}
	bwdStart.Buffers += bwdBuf
	bwdEnd := base
	bwdEnd.Activations = act.kept // a kept output outlives backward's saved tensors
	bwdEnd.Buffers = persistBuf + bwdBuf
	bwdEnd.Temporaries = s.quantWork
	bwd := bwdStart
	if bwdEnd.Tensors() > bwdStart.Tensors() {
		bwd = bwdEnd
	}
	step := base
	step.Gradients = stepGrads // no_sync's unsharded gradients are reduce-scattered by the last backward
	step.Gathered = 0          // ZeRO-3/FSDP reshard after backward
	step.Buffers = persistBuf
	step.Temporaries = stepTemp
	step.Activations = act.kept // optimizer.step() runs before the name is rebound

	ms := [3]Memory{fwd, bwd, step}
	peak := 0
	for i := range ms {
		ms[i].Overhead = 0
		if ms[i].Tensors() > ms[peak].Tensors() {
			peak = i
		}
	}
	for i, ph := range [3]Phase{PhaseForward, PhaseBackward, PhaseStep} {
		out[i] = PhaseMemory{Phase: ph, Memory: ms[i]}
	}
	return peak
}

// stepShape is what the phases of one training step share: the tensor-
// and data-parallel degrees, the recipe and its bytes, the ZeRO stage
// (0 for torch FSDP on one data-parallel rank), and the parameters by kind.
type stepShape struct {
	t, dp float64 // tensor-parallel degree; data-parallel ranks
	r     Recipe
	rb    recipeBytes
	stage int // ZeRO stage; 0 for fsdp when dp is 1 (see newStepShape)
	// total parameters, trainable ones, frozen bytes (LoRA/QLoRA's base),
	// the bytes one frozen parameter takes as stored and as a 16- or
	// 32-bit frozen copy, and the 4-bit dequantization workspace per GPU.
	total, trainable, frozen, frozenParamBytes, frozenBytes, quantWork float64
	// mixedUnits: LoRA adapters share each FSDP unit with frozen weights
	// (LitGPT), see modelStates.
	mixedUnits bool
}

func newStepShape(w *Workload) stepShape {
	s := stepShape{t: float64(w.TP), dp: float64(w.GPUs / w.TP), total: w.Model.ParamCount(), r: w.TrainingRecipe()}
	s.rb = bytesFor(s.r)
	// DeepSpeed keeps its stage on one data-parallel rank: the engine
	// builds the stage's optimizer whatever the world size (deepspeed/
	// runtime/engine.py _configure_zero_optimizer), and ZeRO-3 partitions
	// each parameter into a world-size-1 partition, the whole of it
	// (partition_parameters.py _partition_param: partition_size =
	// tensor_size // world size), on offload_param.device; gathering it is
	// ds_tensor.to(device) (NoGatherHandle), a view when it is on the GPU,
	// a copy when it is offloaded. So the shard is the whole model and
	// offload moves it as on more ranks. torch FSDP on one rank runs
	// NO_SHARD instead ("FSDP is switching to use `NO_SHARD` instead of
	// ShardingStrategy.FULL_SHARD since the world size is 1", torch/
	// distributed/fsdp/_init_utils.py); its CPU offload is fsdpCPUOffload's.
	s.stage = w.Strategy.ZeROStage()
	if s.dp == 1 && w.Strategy == FSDP {
		s.stage = 0
	}
	s.frozenBytes = 2.0
	if s.r == RecipeFP32 {
		s.frozenBytes = 4
	}
	switch w.Task {
	case TaskLoRA:
		s.frozen = s.total * s.frozenBytes
		s.frozenParamBytes = s.frozenBytes
		s.trainable = loraParams(w)
	case TaskQLoRA:
		_, dq := w.FourBit()
		q, work := fourBitLinear(w)
		rest := 2.0 // embeddings, norms, an unquantized head
		if s.r == RecipeFP32 || kbitFP32(w, s.r) {
			rest = 4
		}
		s.frozen = q*FourBitBytesPerParam(dq) + (s.total-q)*rest
		s.frozenParamBytes = s.frozen / max(s.total, 1)
		s.trainable = loraParams(w)
		s.quantWork = work / s.t
	default:
		s.trainable = s.total
		s.frozenParamBytes = s.rb.weight
	}
	s.mixedUnits = w.Trainer == TrainerLitGPT && w.Task == TaskLoRA && w.Strategy == FSDP && s.dp > 1
	return s
}

// kbitFP32 reports whether a QLoRA job's parameters that are not 4-bit
// (embeddings, norms, an unquantized LM head) are fp32 and, with them, the
// whole forward stream: PEFT's prepare_model_for_kbit_training "cast[s]
// all non INT8 parameters to fp32" — every fp16/bf16 parameter whose class
// is not Params4bit (peft src/peft/utils/other.py lines 204–209 at
// 5d602fdbf; unchanged since peft#389, May 2023), and loading the 4-bit
// model in fp32 does the same. Counted on the Hugging Face path without
// autocast (pure16), on one GPU or DDP:
//   - under autocast (Trainer bf16=True) TRL's SFTTrainer, which calls it
//     from v0.8 (trl/trainer/sft_trainer.py), puts embed_tokens and lm_head
//     back to bf16 (peft_module_casting_to_bf16, v0.14 sft_trainer.py line
//     233; the QLoRA reference qlora.py likewise), keeping only the norms
//     fp32; TRL v0.25 upcasts the norms only (its own copy,
//     trl/models/utils.py) and v0.26 (trl#4577) no longer calls it — so
//     the autocast recipe keeps them 16-bit;
//   - sharded QLoRA skips it: "one should never call
//     peft_module_casting_to_bf16 or prepare_model_for_kbit_training when
//     doing QLoRA + FSDP / DS-Zero3" (TRL v0.14 sft_trainer.py lines
//     183–185), and a DeepSpeed engine casts the module to 16 bits;
//   - LitGPT (Fabric's BitsandbytesPrecision) and torchtune (torchao NF4)
//     do not call it.
//
// Without autocast the fp32 embedding output keeps the stream fp32
// (LlamaRMSNorm returns weight · x.to(input_dtype); bitsandbytes
// Linear4bit.forward casts its output back to the input's dtype) and the
// fp32 head writes fp32 logits (data/testdata/calibration/saved/
// kbit_fp32.py: residual and logits fp32, and under autocast the logits
// bf16).
func kbitFP32(w *Workload, r Recipe) bool {
	return w.Task == TaskQLoRA && w.Trainer == TrainerHF && (w.Strategy == Single || w.Strategy == DDP) && r == RecipePure16
}

// shard is the data-parallel degree the states of ZeRO stage st are
// sharded over: dp from that stage on, else 1.
func (s *stepShape) shard(st int) float64 {
	if s.stage >= st {
		return s.dp
	}
	return 1
}

// modelStates returns the weights, gradients and optimizer states one GPU
// holds through the step (with what ZeRO-3/FSDP gathers and parameter
// offload moves to the host), and the gradients the optimizer step reads.
func modelStates(w *Workload, s *stepShape) (base Memory, stepGrads float64) {
	a := &w.Model
	ob := s.rb.master + optimizerStateBytes(w.Optimizer, s.rb.state, a)
	base.Weights = (s.frozen + s.trainable*s.rb.weight) / s.t / s.shard(3)
	base.Gradients = s.trainable * s.rb.grad / s.t / s.shard(2)
	// LoRA under FSDP where the adapters share each block's unit with
	// frozen weights (TrainerLitGPT: auto_wrap_policy={Block}; Hugging Face's
	// Trainer wraps the LoRA modules apart instead): "FSDP supports mixing
	// frozen and non-frozen, but ... the gradient memory usage will be
	// higher than expected (namely, equivalent to not freezing those
	// parameters)" (torch FSDP docs, use_orig_params). With gradient
	// accumulation FSDP1's no_sync (Lightning's no_backward_sync) skips
	// the reduce-scatter and keeps those gradients unsharded until the
	// last micro-batch ("avoids the communication but uses more gradient
	// memory (storing the unsharded gradients)", pytorch/pytorch#126166).
	stepGrads = base.Gradients
	if s.mixedUnits {
		g := (s.total - a.embeddingParams() - a.headParams()) * s.frozenBytes / s.t
		stepGrads += g / s.dp
		if w.GradAccum > 1 {
			base.Gradients += g
		} else {
			base.Gradients += g / s.dp
		}
	}
	base.OptimizerStates = s.trainable * ob / s.t / s.shard(1)
	if s.stage >= 3 {
		gathered, full := gatheredBytes(w, s)
		base.Gathered = min(gathered, full-base.Weights)
		if w.OffloadParams {
			// Parameter offload: zero.Init stores each parameter's
			// partition on remote_device = offload_param.device, "cpu"
			// (deepspeed/runtime/zero/partition_parameters.py, Init.__init__
			// and _partition_param); the GPU keeps only what is gathered
			// (stage3_max_live_parameters, gatheredParams). FSDP's
			// CPUOffload likewise (fsdpCPUOffload).
			base.HostOffload = base.Weights
			base.Gathered = min(gathered, full)
			base.Weights = 0
		}
	}
	return base, stepGrads
}

// gatheredBytes returns the bytes per GPU of the unsharded parameters
// ZeRO-3/FSDP hold for the units in flight (gatheredParams, in the
// dtype they are gathered in) and of the whole model unsharded.
func gatheredBytes(w *Workload, s *stepShape) (gathered, full float64) {
	full = (s.frozen + s.trainable*s.rb.weight) / s.t
	gb := 2.0 // FSDP's param_dtype and DeepSpeed's compute dtype
	if s.r == RecipeFP32 {
		gb = 4
	}
	if w.Task.Adapters() {
		gb = s.frozenParamBytes // 4-bit weights are gathered as stored (bnb_4bit_quant_storage)
	}
	elem := 1.0
	if w.Task == TaskQLoRA {
		elem = gb / 2 // packed 4-bit in a 16-bit bnb_4bit_quant_storage
	}
	return gatheredParams(&w.Model, s.r, w.Ckpt(), elem) * gb / s.t, full
}

// castCacheBytes is the autocast cast cache: 16-bit copies of the fp32
// weights that enter matmuls (autocast_mode.cpp cached_cast: "cache fp16
// casts of fp32 model weights"; cleared when the outermost autocast exits,
// but autograd keeps the copies it saved until backward).
func castCacheBytes(w *Workload, s *stepShape) float64 {
	if s.r == RecipeAutocast && !w.Task.Adapters() && w.Precision != FP32 && w.Precision != TF32 {
		return 2 * matmulParams(w) / s.t
	}
	return 0
}

// commBuffers returns the communication buckets: those that live through
// the step (persist) and those only backward holds (bwd).
func commBuffers(w *Workload, s *stepShape, base *Memory) (persist, bwd float64) {
	a := &w.Model
	dsStage := w.Strategy.ZeROStage() // DeepSpeed runs its engine, buckets included, on one GPU too
	switch {
	case s.r == RecipeDeepSpeed && dsStage >= 3:
		persist = DSReduceBucketSize * 2
	case s.r == RecipeDeepSpeed && dsStage >= 1:
		bwd = DSReduceBucketSize * 2
	case s.dp <= 1:
	case s.r == RecipeFSDPMixed || s.stage >= 3:
		// Reduce-scatter input: one unit's unsharded 16-bit gradient
		// (the whole unit's when frozen weights share it).
		bwd = min(a.blockParams(), s.trainable) * 2 / s.t
		if s.mixedUnits {
			bwd = a.blockParams() * 2 / s.t
		}
		if !a.HasShape() {
			bwd = s.trainable * 2
		}
	case w.Strategy == DDP || w.Strategy == Single:
		// DDP all-reduces through buckets that copy the gradients unless
		// gradient_as_bucket_view=True, which "can reduce peak memory
		// usage, where the saved memory size will be equal to the total
		// gradients size" (torch.nn.parallel.DistributedDataParallel docs);
		// the reducer allocates them at construction.
		persist = base.Gradients
	}
	return persist, bwd
}

// stepTemporaries returns the optimizer step's temporaries.
func stepTemporaries(w *Workload, s *stepShape) float64 {
	switch {
	case s.r == RecipeDeepSpeed && s.stage >= 3:
		return min(s.trainable/s.t/s.dp, DSSubGroupSize) * 4
	case s.r == RecipeDeepSpeed:
		// stage_1_and_2.py step(): the 16-bit gradient partition is
		// flattened and converted to the fp32 master's dtype.
		return s.trainable * 4 / s.t / s.shard(1)
	case (w.Optimizer == Adam || w.Optimizer == AdamW) && !w.torchAtLeast(2, 0):
		// The for-loop Adam (and transformers' AdamW) makes one
		// denominator temporary per parameter: the largest one's.
		return min(w.Model.largestModule(), s.trainable) * s.rb.state / s.t
	case w.Optimizer == Adam || w.Optimizer == AdamW:
		// torch.optim's default on CUDA is the foreach implementation
		// (optimizer.py _default_to_fused_or_foreach); _multi_tensor_adam
		// allocates exp_avg_sq_sqrt = _foreach_sqrt(exp_avg_sqs), one
		// state-sized temporary. fused=True (AdamWFused) avoids it.
		// PyTorch 2.0 kept a second one alive beside it, denom =
		// _foreach_add(exp_avg_sq_sqrt, eps), until "[foreach][Adam]
		// Minimize use of intermediates to decrease peak memory"
		// (pytorch/pytorch#104780, AdamW #104898, July 2023, first
		// released in 2.1: "a minimum budget of 1 intermediate",
		// pytorch/pytorch#97712) made it in place.
		return foreachAdamIntermediates(w) * s.trainable * s.rb.state / s.t / s.shard(1)
	}
	return 0
}

// foreachAdamIntermediates returns how many state-sized temporaries
// torch.optim's foreach Adam/AdamW holds at once (see stepTemporaries):
// two before PyTorch 2.1 (exp_avg_sq_sqrt and denom), one from 2.1.
func foreachAdamIntermediates(w *Workload) float64 {
	if w.torchAtLeast(2, 1) {
		return 1
	}
	return 2
}

// fourBitLinear returns the parameters bitsandbytes stores in 4 bits and
// the bytes of its dequantization workspace, before tensor parallelism.
// Every 4-bit matmul of more than one token (bitsandbytes/autograd/
// _functions.py matmul_4bit: gemv_4bit only for a single row) runs
// MatMul4Bit.forward, linear(A, F.dequantize_4bit(B, state).to(A.dtype).t()):
// dequantize_4bit allocates the weight in the dtype it was quantized from
// (functional.py, out = torch.empty(shape, dtype=state.dtype)), and .to
// copies it again when that is not the compute dtype; backward does the
// same for grad_A. One layer is dequantized at a time, so the largest
// 4-bit layer sets the workspace.
//
// Hugging Face load_in_4bit quantizes the block linears only (transformers
// keeps the output embeddings 16-bit, get_keys_to_not_convert) in the load
// dtype (current bitsandbytes nn/modules.py Params4bit._quantize keeps it),
// so .to is a no-op: one 16-bit copy. Lightning Fabric's
// BitsandbytesPrecision (TrainerLitGPT) also quantizes the LM head and
// quantizes from fp16, so a bf16 model makes two 16-bit copies of it.
// torchtune (TrainerTorchtune) quantizes every block linear, LoRA-adapted
// or not, and never the output projection; its linear_nf4 dequantizes the
// weight to the input's dtype (weight.to(input.dtype), torchao nf4_tensor.py
// LinearNF4.forward): one 16-bit copy, as Hugging Face's.
func fourBitLinear(w *Workload) (params, work float64) {
	a := &w.Model
	params, largest, copies := a.LinearParams(), a.largestLinear(), 1.0
	if w.Trainer == TrainerHF {
		// bitsandbytes' conversion replaces nn.Linear (and Conv1D)
		// modules only (transformers integrations/bitsandbytes.py
		// _replace_with_bnb_linear), and transformers 5 keeps an MoE
		// layer's routed experts as 3-D parameters of one module (see
		// RoutedExpertLinearParams): they load at the model's 16-bit
		// dtype ("fused experts ... are silently skipped and stay full
		// precision", bitsandbytes-foundation/bitsandbytes#1849, open).
		// gpt-oss's 117B were counted 4-bit: 57.85 GiB of weights,
		// "borderline" on one H100, for a model whose experts alone are
		// 200 GiB at bf16 (walk49).
		params -= a.RoutedExpertLinearParams()
	}
	if w.Trainer == TrainerLitGPT {
		head := a.headParams()
		params += head
		largest = max(largest, head)
		if w.Precision != FP16 {
			copies = 2
		}
	}
	return params, 2 * copies * largest
}

// largestLinear returns the parameters of the largest block linear layer.
func (a *Architecture) largestLinear() float64 {
	if !a.HasShape() {
		return 0
	}
	h := float64(a.Hidden)
	return max(h*float64(a.FFN), h*float64(a.Heads*a.EffectiveHeadDim()))
}

// memory computes the per-GPU memory of w (validated, with Defaults) at
// its peak phase, fills ph with every phase (training) and returns the
// index of the peak in ph; ov receives the overhead, states the model
// states of the whole step.
func memory(w *Workload, ov *Overhead, ph *[3]PhaseMemory, states *Memory) (Memory, int) {
	a := &w.Model
	t := float64(w.TP)
	if w.Task == TaskInference {
		var m Memory
		total := a.ParamCount()
		linear := a.LinearParams()
		m.Weights = (linear*inferenceLinearBytes(w.Precision) + (total-linear)*min(activationBytes(w.Precision), 2)) / t
		if w.Precision == FP32 {
			m.Weights = total * 4 / t
		}
		if w.Precision == INT4 && w.QuantType != QuantAuto {
			// bitsandbytes Linear4bit (load_in_4bit): its own block
			// constants (FourBitBytesPerParam), and each 4-bit matmul of a
			// prompt dequantizes its weight to a 16-bit tensor first
			// (bitsandbytes/autograd/_functions.py matmul_4bit →
			// MatMul4Bit.forward: F.dequantize_4bit), one at a time.
			_, dq := w.FourBit()
			q, work := fourBitLinear(w)
			m.Weights = (q*FourBitBytesPerParam(dq) + (total-q)*2) / t
			m.Temporaries = work / t
		}
		m.KVCache = kvCache(w) / t
		m.Activations = inferenceActivations(w)
		*ov = overhead(w, m, m)
		m.Overhead = ov.Total()
		ph[0] = PhaseMemory{Phase: PhaseInfer, Memory: m}
		states.Weights = m.Weights
		return m, 0
	}
	peak := phases(w, ph, states)
	// Fragmentation follows the dynamic allocations of the whole step:
	// the largest activations and gradients of any phase.
	var dyn Memory
	for _, p := range ph {
		dyn.Activations = max(dyn.Activations, p.Memory.Activations)
		dyn.Gradients = max(dyn.Gradients, p.Memory.Gradients)
	}
	*ov = overhead(w, ph[peak].Memory, dyn)
	for i := range ph {
		ph[i].Memory.Overhead = ov.Total()
	}
	return ph[peak].Memory, peak
}

// cudaContextBytes returns the CUDA context of w's PyTorch: lazy module
// loading from 1.13 (TorchVersion), eager before.
func cudaContextBytes(w *Workload) float64 {
	if (w.Framework == PyTorch || w.Framework == "") && !w.torchAtLeast(1, 13) {
		return CUDAContextEagerBytes
	}
	return CUDAContextBytes
}

// kvCache returns the KV cache bytes for all concurrent sequences, before
// tensor parallelism: 2 (K and V) · layers · kv_heads · head_dim · context ·
// sequences · bytes (Pope et al., 2022, "Efficiently Scaling Transformer
// Inference", §2.1). Encoder-decoders also cache the cross-attention K and
// V over the encoder length.
//
// A sliding-window layer (Architecture.SlidingWindow, SlidingLayers) keeps
// only the last SlidingWindow − 1 tokens: generate's DynamicCache, built
// from the config, gives each "sliding_attention" layer a
// DynamicSlidingWindowLayer, whose update keeps
// full_key_states[:, :, -self.sliding_window + 1 :, :] ("Only cache the
// last `self.sliding_window - 1` tokens"; huggingface/transformers
// src/transformers/cache_utils.py @ 004999d9). Gemma 2 and 3's older
// HybridCache kept the same window for those layers.
func kvCache(w *Workload) float64 {
	a := &w.Model
	if !a.HasShape() || a.Family == FamilyEncoder || a.Family == FamilyViT {
		return 0
	}
	kvd := float64(a.EffectiveKVHeads() * a.EffectiveHeadDim())
	n := float64(w.Sequences) * kvBytes(w.Precision)
	switch a.Family {
	case FamilyEncoderDecoder:
		return 2 * float64(a.DecoderLayers) * kvd * (float64(w.ContextLen) + encoderLen(w)) * n
	}
	if a.SlidingWindow > 0 && a.SlidingLayers > 0 {
		return 2 * kvd * kvTokensHeld(a, w.ContextLen) * n
	}
	return 2 * float64(a.Layers) * kvd * float64(w.ContextLen) * n
}

// kvTokensHeld returns the tokens of K and V a's layers hold, summed over
// its layers, for one sequence of ctx tokens under transformers' cache:
// every token in a full-attention layer, the last SlidingWindow − 1 (at
// most ctx) in a sliding-window one (kvCache).
func kvTokensHeld(a *Architecture, ctx int) float64 {
	sliding := min(a.SlidingLayers, a.Layers)
	kept := min(ctx, max(a.SlidingWindow-1, 1))
	return float64(a.Layers-sliding)*float64(ctx) + float64(sliding)*float64(kept)
}

// overhead returns the named runtime terms for w given the tensor memory
// m at the peak and the dynamic allocations dyn of the step.
func overhead(w *Workload, m, dyn Memory) Overhead {
	o := Overhead{
		CUDAContext: cudaContextBytes(w),
		Workspace:   CUBLASWorkspaceBytes,
	}
	if w.GPUs > 1 {
		o.Communication = NCCLBufferBytes
	}
	o.Fragmentation = w.tuning().FragmentationFraction * (dyn.Activations + dyn.Gradients)
	if math.IsNaN(o.Fragmentation) {
		o.Fragmentation = 0
	}
	return o
}
