package model

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strings"
)

// Workload is what the user wants to run: the model, the task and how it is
// spread over GPUs. Build it from the configurator, flags or a TOML file,
// apply Defaults, then Validate it.
type Workload struct {
	Settings
	Model Architecture // resolved architecture (catalog entry, custom shape or config.json)

	LoRADropout float64 // dropout on each adapter's input (PEFT lora_dropout); 0, PEFT's default, keeps no mask
	// BatchPerGPU is set by Defaults when the request names no gradient
	// accumulation (nor takes an adapter recipe's batch): the micro-batch
	// is then per GPU, as Trainer's per_device_train_batch_size is, and the
	// global batch is micro-batch × data-parallel GPUs wherever the job
	// runs. Otherwise the global batch (GlobalBatch) is the job's and
	// OnGPUs keeps it on any GPU count by scaling the accumulation.
	BatchPerGPU bool
	// batchRule is which of adapterBatch's rules filled the batch (0:
	// none) and batchGivenAccum the accumulation the request gave, so
	// BatchNote says the batch on the GPUs OnGPUs moves the job to;
	// batchDropped is set when those GPUs cannot share it
	// (GlobalBatchChange says the batch run instead).
	batchRule       adapterBatchRule
	batchGivenAccum int
	batchDropped    bool
	// AskedGlobalBatch is the global batch asked for when the job runs
	// another (GlobalBatchChange): the adapter recipe's 16 on data-parallel
	// GPUs that cannot share it (adapterBatch), or the batch OnGPUs could
	// not split over its GPUs; 0 when the job runs the batch asked.
	AskedGlobalBatch int
	// NetworkFrom says where NetworkGbps came from when the user did not
	// give it (Catalog.FillNetwork); "" when given or unset.
	NetworkFrom NetworkSource
	// NetworkTypes is the catalog instance types behind a NetworkCatalog
	// figure (Catalog.NodeNetwork).
	NetworkTypes int
	// Tuning overrides DefaultTuning, the constants fitted to the
	// calibration suite; nil for every estimate a user sees. The
	// calibration's cross-validation sets it (see Tuning).
	Tuning *Tuning
}

// Settings are the workload settings the user states and the estimate
// reads unchanged: WorkloadAnswers (the request) and Workload (the domain
// input) both embed them, so turning one into the other copies one struct.
// Zero values mean "the default" (see Workload.Defaults).
type Settings struct {
	Framework Framework
	Task      Task
	Precision Precision
	Optimizer Optimizer

	MicroBatch int // samples per GPU per forward/backward pass, ≥ 1 (the file's batch_size)
	SeqLen     int // tokens per sample (text models); decoder length for encoder-decoders
	ImageSize  int // pixels square (vision models)
	GradAccum  int // micro-batches per optimizer step, ≥ 1
	// Checkpointing is full activation checkpointing (recompute each block
	// in backward); nil means the default: on for QLoRA, where PEFT's
	// prepare_model_for_kbit_training turns it on, off otherwise.
	Checkpointing *bool
	// FlashAttention is fused attention that never stores the s² score
	// matrix; nil means the framework's default (see Defaults).
	FlashAttention *bool

	LoRARank    int      // adapter rank r, for lora and qlora
	LoRATargets []string // projections adapted: any of q k v o gate up down

	DatasetSamples float64 // samples (images, sequences) per epoch; 0 when given in tokens
	DatasetTokens  float64 // tokens per epoch; 0 when given in samples
	Epochs         float64 // passes over the dataset, > 0

	GPUs     int      // total GPUs, ≥ 1 (0 in a request with gpus = "auto")
	Strategy Strategy // data-parallel strategy
	TP       int      // tensor-parallel degree, ≥ 1, divides GPUs
	// GPUsPerNode is the GPUs one node holds, for timing a job without an
	// instance type (gpuplan estimate); 0 is DefaultGPUsPerNode. Matching
	// times each instance type with its own count (HostOf).
	GPUsPerNode int
	// NetworkGbps is the node-to-node network of a job on more GPUs than
	// one node holds, Gbps per node, for timing it without an instance
	// type; 0 leaves it to the catalog (Catalog.FillNetwork). Matching
	// times each instance type with its own network (HostOf), and one
	// without a figure at this one (Catalog.DefaultNetwork).
	NetworkGbps float64

	ContextLen int // inference: tokens per sequence held in the KV cache (prompt + generated)
	Sequences  int // inference: sequences decoded concurrently on each model replica
	GenTokens  int // inference: tokens generated per sequence (decoders and encoder-decoders only)

	MFU float64 // model FLOPs utilisation override, MinMFU–1 (Validate); 0 picks DefaultMFU

	Recipe      Recipe    // training recipe; RecipeAuto picks TrainingRecipe's choice
	Loss        Loss      // LM loss implementation; LossAuto is Hugging Face's fp32 upcast
	QuantType   QuantType // QLoRA base format; QuantAuto is NF4
	DoubleQuant *bool     // QLoRA double quantization of the absmax constants; nil is on
	// Torch is the PyTorch release the job runs on; zero is DefaultTorch
	// (see TorchVersion for what it changes).
	Torch TorchVersion
	// Trainer is the training library; "" is TrainerHF (see Trainer).
	Trainer Trainer
	// ZeroGrad is where the loop calls optimizer.zero_grad(); "" is
	// ZeroGradAfterStep (see ZeroGrad).
	ZeroGrad ZeroGrad
	// Outputs is how long the loop holds the model's outputs; "" is
	// OutputsDropped (see Outputs).
	Outputs Outputs
	Switches
}

// Switches are the boolean settings that are off unless asked for. A
// switch is one field here, read and written by every front end from its
// tags: toml is its [workload] key (config.Decode and config.Encode walk the
// fields; note is the comment written beside it, and only true is
// written), json its key in the JSON reports' workload (ui/report embeds
// Switches). Its rule goes in Workload.Validate, its effect where the
// estimate reads it; ui/cli lists its flag and ui/tui its question.
type Switches struct {
	// OffloadOptimizer is DeepSpeed ZeRO-Offload (zero_optimization.
	// offload_optimizer.device = "cpu"): the optimizer states, fp32 master
	// included, live in host RAM and the optimizer steps on the CPU
	// (DeepSpeedCPUAdam). DeepSpeed's DeepSpeedZeroOffloadOptimizerConfig
	// (deepspeed/runtime/zero/offload_config.py): "Valid with stage 1, 2,
	// and 3", so only with a ZeRO strategy (one GPU included).
	OffloadOptimizer bool `toml:"offload_optimizer" json:"offload_optimizer,omitempty" note:"DeepSpeed ZeRO-Offload: optimizer states in host RAM"`
	// OffloadParams is parameter offload to host RAM, with zero3 or fsdp.
	// With zero3 it is DeepSpeed's (ZeRO-Infinity; zero_optimization.
	// offload_param.device = "cpu"): the 16-bit parameter partition lives
	// in host RAM and each layer is gathered to the GPU when used;
	// DeepSpeedZeroOffloadParamConfig (deepspeed/runtime/zero/
	// offload_config.py): "Valid only with stage 3". With fsdp it is torch
	// FSDP's CPUOffload(offload_params=True) (FSDP2: CPUOffloadPolicy;
	// Accelerate fsdp_offload_params, HF Trainer --fsdp "full_shard
	// offload"), which "offloads gradients to CPU as well, meaning that the
	// optimizer step runs on CPU" (torch/distributed/fsdp/api.py,
	// CPUOffload): see fsdpCPUOffload.
	OffloadParams bool `toml:"offload_params" json:"offload_params,omitempty" note:"parameter offload to host RAM (DeepSpeed ZeRO-3 offload_param, or torch FSDP CPUOffload: gradients and optimizer step too)"`
	// OffloadActivations moves the checkpointed input of each block to
	// host RAM in forward and back in backward, one block at a time
	// (Unsloth's use_gradient_checkpointing="unsloth", unsloth_zoo
	// gradient_checkpointing.py Unsloth_Offloaded_Gradient_Checkpointer;
	// axolotl gradient_checkpointing: offload): only with activation
	// checkpointing, on a transformer (see offloadActivations).
	OffloadActivations bool `toml:"offload_activations" json:"offload_activations,omitempty" note:"checkpointed block inputs in host RAM (Unsloth offloaded gradient checkpointing)"`
	// OptimizerInBackward steps each parameter in a hook as soon as its
	// gradient is accumulated and frees the gradient (torchtune
	// optimizer_in_bwd; Tensor.register_post_accumulate_grad_hook, PyTorch
	// 2.1): the step never holds every gradient at once (see
	// optimizerInBackward). torchtune refuses it with gradient accumulation.
	OptimizerInBackward bool `toml:"optimizer_in_backward" json:"optimizer_in_backward,omitempty" note:"step each parameter in backward and free its gradient (torchtune optimizer_in_bwd)"`
	// ChannelsLast: a convolutional network's tensors are channels-last
	// (NHWC: model.to(memory_format=torch.channels_last) and the inputs
	// likewise, PyTorch's channels_last tutorial; DeepLearningExamples
	// ConvNets --memory-format nhwc; timm --channels-last); off is
	// PyTorch's default contiguous NCHW layout, which tensor-core
	// convolutions transpose (see NCHWTensorCores). TensorFlow's GPU
	// convolutions are NHWC whatever this says. Only for networks with
	// convolutions (cnn and unet families).
	ChannelsLast bool `toml:"channels_last" json:"channels_last,omitempty" note:"PyTorch channels_last (NHWC) tensors for a convolutional network"`
}

// Clone returns a copy of s that shares no slice with it.
func (s Settings) Clone() Settings {
	s.LoRATargets = slices.Clone(s.LoRATargets)
	return s
}

// AdapterGradAccum is the gradient accumulation of LoRA and QLoRA when
// the request names neither a micro-batch nor an accumulation: with a
// micro-batch of 1, the global batch of 16 of the QLoRA reference recipe
// (artidoro/qlora qlora.py defaults; Dettmers et al. 2023, appendix B,
// batch size 16 for the 7B–13B models).
const AdapterGradAccum = 16

// Defaults returned by DefaultLoRATargets and used by Workload.Defaults.
const (
	DefaultLoRARank   = 16
	DefaultGenTokens  = 256
	DefaultSequences  = 1
	defaultSeqLen     = 2048
	defaultImageSize  = 224
	defaultMicroBatch = 1
)

// DefaultLoRATargets are the attention projections, the targets of the LoRA
// paper's experiments (Hu et al., 2021, §4.2 and §7.1) and of PEFT's
// defaults for Llama-style models.
func DefaultLoRATargets() []string { return []string{"q", "k", "v", "o"} }

// Defaults fills the zero fields with the model's defaults or gpuplan's:
// PyTorch, training with the model's recipe's optimizer
// (Architecture.DefaultOptimizer) or else AdamW, in amp-bf16 (bf16 for
// inference), one GPU,
// flash attention on for PyTorch (2.0's scaled_dot_product_attention picks a
// fused kernel by default) and off for TensorFlow and JAX (their default
// attention materialises the scores). It never overrides a field that is set.
func (w *Workload) Defaults() {
	if w.Framework == "" {
		w.Framework = PyTorch
	}
	if w.Torch.IsZero() {
		w.Torch = DefaultTorch
	}
	if w.Trainer == "" {
		w.Trainer = TrainerHF
	}
	if w.ZeroGrad == "" {
		w.ZeroGrad = ZeroGradAfterStep
	}
	if w.Outputs == "" {
		w.Outputs = OutputsDropped
	}
	if w.FlashAttention == nil {
		// scaled_dot_product_attention came with PyTorch 2.0; before it,
		// Hugging Face's default attention was the eager one.
		w.FlashAttention = Bool(w.Framework == PyTorch && w.torchAtLeast(2, 0))
	}
	if w.Task == "" {
		w.Task = TaskTrain
	}
	if w.Precision == "" {
		w.Precision = PrecisionsFor(w.Task)[0]
	}
	if w.Optimizer == "" {
		w.Optimizer = cmp.Or(w.Model.DefaultOptimizer, AdamW)
	}
	if w.Task.Adapters() {
		w.adapterBatch()
	}
	if w.MicroBatch == 0 {
		w.MicroBatch = max(w.Model.DefaultBatch, defaultMicroBatch)
	}
	if w.SeqLen == 0 && !w.Model.Family.Vision() {
		w.SeqLen = w.Model.DefaultSeqLen
		if w.SeqLen == 0 {
			// Within a learned position table's rows even when
			// max_positions is not given (PositionLimit).
			w.SeqLen = min(defaultSeqLen, maxIfSet(cmp.Or(w.Model.PositionLimit(), w.Model.MaxPositions)))
		}
	}
	if w.ImageSize == 0 && w.Model.Family.Vision() {
		w.ImageSize = w.Model.DefaultImageSize
		if w.ImageSize == 0 {
			w.ImageSize = w.Model.ImageSize
		}
		if w.ImageSize == 0 {
			w.ImageSize = defaultImageSize
		}
	}
	if w.GradAccum == 0 {
		w.GradAccum = 1
		w.BatchPerGPU = true
	}
	if w.Checkpointing == nil {
		w.Checkpointing = Bool(w.Task == TaskQLoRA)
	}
	if w.Task.Adapters() {
		if w.LoRARank == 0 {
			w.LoRARank = DefaultLoRARank
		}
		if len(w.LoRATargets) == 0 {
			w.LoRATargets = DefaultLoRATargets()
		} else {
			w.LoRATargets = LoRATargetNames(w.LoRATargets)
		}
	}
	if w.Epochs == 0 {
		w.Epochs = 1
	}
	if w.GPUs == 0 {
		w.GPUs = 1
	}
	if w.Strategy == "" {
		w.Strategy = Single
		if w.GPUs > 1 {
			w.Strategy = DDP
		}
	}
	if w.TP == 0 {
		w.TP = 1
	}
	if w.Task == TaskInference {
		if w.ContextLen == 0 {
			w.ContextLen = w.SeqLen
		}
		if w.Sequences == 0 {
			w.Sequences = max(w.MicroBatch, DefaultSequences)
		}
		// A classification head scores its input in one forward pass and
		// generates nothing (transformers' GenericForSequenceClassification
		// pools the last token's logits; no generate loop).
		if w.GenTokens == 0 && w.Model.Family.Generative() && w.Model.Head == "" {
			w.GenTokens = min(DefaultGenTokens, max(w.ContextLen/2, 1))
		}
	}
}

// adapterBatch applies the LoRA/QLoRA recipe (artidoro/qlora qlora.py:
// per_device_train_batch_size=1, gradient_accumulation_steps=16, a global
// batch of 16; Dettmers et al. 2023, appendix B) to the parts of the batch
// the request leaves out, so a setting the user gives never changes one
// they did not give in a way that grows memory:
//
//   - neither given: micro-batch 1 × accumulation 16 ÷ data-parallel GPUs
//     (GPUs that cannot share 16 take the accumulation whose global batch
//     is nearest 16, recipeAccum: 3 GPUs 1 × 5 = 15, 6 GPUs 1 × 3 = 18;
//     it fell to 1 per GPU, 3 on 3 GPUs, and recommend refused them);
//   - accumulation given: the recipe's micro-batch 1, the global batch
//     follows (1 × N × GPUs);
//   - micro-batch 1 given (the recipe's): the recipe's accumulation
//     (recipeAccum), as when none is given (the configurator shows 1 and means the recipe);
//   - another micro-batch given: per GPU, no accumulation (Trainer's
//     per_device_train_batch_size with its default
//     gradient_accumulation_steps=1), which grows nothing not given, and
//     BatchNote says the recipe's global batch was left;
//   - both given: left alone.
//
// BatchNote says which applied. Optimizer-in-backward steps every
// micro-batch (torchtune refuses accumulation), so it takes no recipe
// accumulation.
func (w *Workload) adapterBatch() {
	dp := max(max(w.GPUs, 1)/max(w.TP, 1), 1)
	switch {
	case w.MicroBatch == 0 && w.GradAccum == 0:
		w.MicroBatch = 1
		if !w.OptimizerInBackward {
			w.GradAccum, w.batchRule = recipeAccum(dp), batchRecipe
		}
	case w.MicroBatch == 0:
		w.MicroBatch = 1
		w.batchRule, w.batchGivenAccum = batchAccumGiven, w.GradAccum
	case w.GradAccum == 0 && w.MicroBatch == 1 && !w.OptimizerInBackward:
		w.GradAccum = recipeAccum(dp)
		w.batchRule = batchMicroOneGiven
	case w.GradAccum == 0 && w.MicroBatch > 1 && !w.OptimizerInBackward:
		// The recipe's accumulation is dropped: said, not silent (a new
		// user's --batch-size 2 turned the global batch 16 into 2).
		w.batchRule = batchMicroGiven
	}
}

// recipeAccum is the recipe's accumulation on dp data-parallel GPUs at
// micro-batch 1: AdapterGradAccum ÷ dp where they share it, else the one
// whose global batch (accumulation × dp) is nearest AdapterGradAccum,
// at least 1 (3 GPUs: 5, a global batch of 15; 6 GPUs: 3, 18; 32 GPUs:
// 1, 32). No two are equally near: that needs 16 = (k + ½) × dp.
func recipeAccum(dp int) int {
	dp = max(dp, 1)
	return max((2*AdapterGradAccum+dp)/(2*dp), 1)
}

// recipeBatch reports whether w's batch is still the adapter recipe's
// one adapterBatch filled (micro-batch 1 × recipeAccum), not one given
// or changed since.
func (w *Workload) recipeBatch() bool {
	dp := max(max(w.GPUs, 1)/max(w.TP, 1), 1)
	return (w.batchRule == batchRecipe || w.batchRule == batchMicroOneGiven) && w.MicroBatch == 1 && w.GradAccum == recipeAccum(dp)
}

// adapterBatchRule is which rule of adapterBatch filled the batch.
type adapterBatchRule uint8

const (
	batchNone          adapterBatchRule = iota
	batchRecipe                         // neither given: the recipe's 16 shared, or the nearest (recipeAccum)
	batchAccumGiven                     // accumulation given, the recipe's micro-batch 1
	batchMicroOneGiven                  // micro-batch 1 given: the recipe's accumulation
	batchMicroGiven                     // another micro-batch given: per GPU, no accumulation
)

// BatchNote says how an adapter recipe's batch filled the micro-batch
// and accumulation the request left out (Defaults); zero when it did
// not, or when the GPUs OnGPUs moved the job to cannot share the batch.
// It is said in w's own micro-batch, accumulation and data-parallel GPUs,
// so it describes the job as estimated wherever OnGPUs moves it (walk37:
// a phase's answers on 1 GPU estimated on its offer's 8 said
// "accumulation 16 stays (global batch 16 on 1 data-parallel GPUs)"
// under a header of 8 GPUs, accumulation 2). Made when asked, not by
// OnGPUs: the ranking moves a workload to each GPU count it weighs, and
// a note made each time was 40% of a recommend's allocations.
func (w *Workload) BatchNote() Message {
	if w.batchDropped {
		return Message{}
	}
	dp := max(max(w.GPUs, 1)/max(w.TP, 1), 1)
	switch w.batchRule {
	case batchRecipe:
		if g := w.GradAccum * dp; g != AdapterGradAccum {
			return Msg("batch: %d data-parallel GPUs cannot share the LoRA/QLoRA recipe's global batch of %d (artidoro/qlora qlora.py), so the nearest they share: %d = micro-batch 1 × accumulation %d × %d GPUs; give --batch-size or --grad-accum to change it", dp, AdapterGradAccum, g, w.GradAccum, dp)
		}
		return Msg("batch: the LoRA/QLoRA recipe's global batch of %d (artidoro/qlora qlora.py), micro-batch 1 × accumulation %d × %d data-parallel GPUs; give --batch-size or --grad-accum to change it", AdapterGradAccum, w.GradAccum, dp)
	case batchAccumGiven:
		if w.GradAccum != w.batchGivenAccum {
			return Msg("batch: micro-batch 1 (the LoRA/QLoRA recipe's; no --batch-size given) × accumulation %d × %d data-parallel GPUs = global batch %d, the one the accumulation %d given makes, kept on these GPUs", w.GradAccum, dp, w.GradAccum*dp, w.batchGivenAccum)
		}
		return Msg("batch: micro-batch 1 (the LoRA/QLoRA recipe's; no --batch-size given) × the accumulation %d given × %d data-parallel GPUs = global batch %d", w.GradAccum, dp, w.GradAccum*dp)
	case batchMicroOneGiven:
		if g := w.GradAccum * dp; g != AdapterGradAccum {
			return Msg("batch: micro-batch 1 given is the LoRA/QLoRA recipe's, so its accumulation stays, at %d: %d data-parallel GPUs cannot share its global batch of %d, so the nearest they share, %d; give --grad-accum 1 for none", w.GradAccum, dp, AdapterGradAccum, g)
		}
		return Msg("batch: micro-batch 1 given is the LoRA/QLoRA recipe's, so its accumulation %d stays (global batch %d on %d data-parallel GPUs); give --grad-accum 1 for none", w.GradAccum, AdapterGradAccum, dp)
	case batchMicroGiven:
		return Msg("batch: micro-batch %d given is per GPU with no accumulation (Trainer's gradient_accumulation_steps=1), global batch %d on %d data-parallel GPUs, not the LoRA/QLoRA recipe's %d (micro-batch 1 × accumulation %d); give --grad-accum to accumulate",
			w.MicroBatch, w.MicroBatch*dp, dp, AdapterGradAccum, AdapterGradAccum)
	}
	return Message{}
}

// GlobalBatch is the samples per optimizer step: micro-batch ×
// gradient accumulation × data-parallel replicas (GPUs ÷ TP).
func (w *Workload) GlobalBatch() int {
	return max(w.MicroBatch, 1) * max(w.GradAccum, 1) * max(w.GPUs/max(w.TP, 1), 1)
}

// askedGlobalBatch is the global batch the request asked for: the one
// recorded when it changed, else the one w runs.
func (w *Workload) askedGlobalBatch() int {
	if w.AskedGlobalBatch > 0 {
		return w.AskedGlobalBatch
	}
	return w.GlobalBatch()
}

// GlobalBatchChange says, in one line, when the global batch the job
// runs differs from the one asked for (AskedGlobalBatch): "global batch:
// asked 16, runs 3 = micro-batch 1 × gradient accumulation 1 × 3
// data-parallel GPUs". Data-parallel GPUs that cannot split a global
// batch into whole samples each take the micro-batch and accumulation
// as they are, so the batch grows (or, for the adapter recipe, falls to
// one per GPU); a changed batch changes the optimizer's steps and so
// the training, and the user has to know (new-user trial: it grew
// silently). ok is false when the job runs the batch asked.
func (w *Workload) GlobalBatchChange() (m Message, ok bool) {
	runs := w.GlobalBatch()
	if !w.Task.Training() || w.AskedGlobalBatch <= 0 || w.AskedGlobalBatch == runs {
		return Message{}, false
	}
	return Msg("global batch: asked %d, runs %d = micro-batch %d × gradient accumulation %d × %d data-parallel GPUs (they cannot share %d in whole samples)",
		w.AskedGlobalBatch, runs, max(w.MicroBatch, 1), max(w.GradAccum, 1), max(w.GPUs/max(w.TP, 1), 1), w.AskedGlobalBatch), true
}

// BatchShared says, in one line, how the batch asked (w, defaulted) runs
// on the GPUs an offer gave it (runs: w.OnGPUs of that count, as
// recommend and export place it): "batch: micro-batch 4 × gradient
// accumulation 2 on 1 GPU (a global batch of 8) runs as micro-batch 1 ×
// accumulation 1 on each of the offer's 8 GPUs, the same global batch, as
// recommend shares it; --gpus 8 asks for 4 × 2 on each GPU (a global
// batch of 64)". A launch file writes the per-GPU batch, so a micro-batch
// and accumulation other than the ones given must be said where they are
// written (new user's walk: export wrote 1 and 1 for 4 × 2, unsaid).
// Zero when nothing moved, when the micro-batch is per GPU
// (BatchPerGPU), when BatchNote says it already (the adapter recipe), or
// when the batch changed (GlobalBatchChange says that).
func (w *Workload) BatchShared(runs *Workload) Message {
	if !w.Task.Training() || !runs.Task.Training() || w.BatchPerGPU || runs.BatchPerGPU || w.GPUs == runs.GPUs ||
		w.MicroBatch == runs.MicroBatch && w.GradAccum == runs.GradAccum || !runs.BatchNote().IsZero() {
		return Message{}
	}
	if _, changed := runs.GlobalBatchChange(); changed || w.GlobalBatch() != runs.GlobalBatch() {
		return Message{}
	}
	per := *w
	per.GPUs = runs.GPUs
	return Msg("batch: micro-batch %d × gradient accumulation %d on %v (a global batch of %d) runs as micro-batch %d × accumulation %d on each of the offer's %v, the same global batch, as recommend shares it; --gpus %d asks for %d × %d on each GPU (a global batch of %d)",
		max(w.MicroBatch, 1), max(w.GradAccum, 1), CountMsg(max(w.GPUs, 1), "GPU"), w.GlobalBatch(), max(runs.MicroBatch, 1), max(runs.GradAccum, 1),
		CountMsg(runs.GPUs, "GPU"), runs.GPUs, max(w.MicroBatch, 1), max(w.GradAccum, 1), per.GlobalBatch())
}

// OnGPUs returns w on n GPUs (tensor parallelism dropped to 1 when it
// does not divide n) with the same global batch: each data-parallel
// replica takes GlobalBatch ÷ replicas samples per step, as the largest
// micro-batch up to w's that divides them times the accumulation that
// makes them up; the micro-batch never grows, so neither does memory.
// ok is false when the replicas cannot split the global batch into whole
// samples. The adapter recipe's batch, not given, is the recipe's again
// on n (recipeAccum: the nearest to 16 the replicas share, always ok),
// so recommend and export run what estimate --gpus n does. A workload whose micro-batch is per GPU (BatchPerGPU) or that
// is not training moves unchanged. BatchNote is said again on v's GPUs
// (batchNote), and dropped when ok is false (GlobalBatchChange says the
// batch v runs).
func (w Workload) OnGPUs(n int) (v Workload, ok bool) {
	v = w
	v.GPUs = n
	if v.TP < 1 || n%v.TP != 0 {
		v.TP = 1
	}
	if w.BatchPerGPU || !w.Task.Training() || n < 1 {
		v.batchDropped = false
		return v, true
	}
	global, dp := w.GlobalBatch(), n/v.TP
	if w.recipeBatch() { // the recipe's 16 again on dp, or the nearest they share, as Defaults gives --gpus n
		v.MicroBatch, v.GradAccum = 1, recipeAccum(dp)
		v.batchDropped = false
		return v, true
	}
	if global%dp != 0 { // v runs micro × accum × n: more than asked (GlobalBatchChange says so)
		v.AskedGlobalBatch = w.askedGlobalBatch()
		v.batchDropped = true // GlobalBatchChange says the batch run
		return v, false
	}
	per := global / dp
	micro := min(max(w.MicroBatch, 1), per)
	for per%micro != 0 {
		micro--
	}
	v.MicroBatch, v.GradAccum = micro, per/micro
	v.batchDropped = false
	return v, true
}

func maxIfSet(n int) int {
	if n > 0 {
		return n
	}
	return math.MaxInt
}

// ErrInvalidWorkload is wrapped by every Workload.Validate error.
var ErrInvalidWorkload = errors.New("invalid workload")

// FieldError is a Validate error about one field, named by its TOML key
// (batch_size); the CLI shows the matching flag (--batch-size).
type FieldError struct {
	Field string  // TOML key, e.g. "batch_size"
	Msg   Message // what is wrong and what is valid
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg.String() }

// Message is the error as one message, its key first.
func (e *FieldError) Message() Message { return Msg("%s: %s", e.Field, e.Msg) }

// Unwrap makes errors.Is(err, ErrInvalidWorkload) hold.
func (e *FieldError) Unwrap() error { return ErrInvalidWorkload }

// Limits of accepted values; beyond them a value is a typo, not a workload.
const (
	MaxBatch  = 1 << 20
	MaxSeqLen = 1 << 24 // 16M tokens
	MaxImage  = 1 << 14 // 16384 px
	MaxGPUs   = 1 << 17 // 131072
	// MaxGPUsPerNode bounds gpus_per_node: the catalog's gpu_count limit.
	MaxGPUsPerNode = 1024
	// MaxNetworkGbps bounds network_gbps: the fastest nodes in the catalog
	// have 3200 Gbps; 100 Tbps per node is a typo.
	MaxNetworkGbps = 100000
	// MinNetworkGbps is the slowest node network taken: 1 Gbps, gigabit
	// Ethernet (IEEE 802.3ab); the catalog's slowest is 10. Below it a
	// job on several nodes times at years or, at 1e-300, at infinity.
	MinNetworkGbps = 1
	MaxEpochs      = 1e6
	MaxDataset     = 1e18
	MaxRank        = 1 << 16
)

// Validate reports the first invalid field of w (after Defaults). Errors
// are *FieldError wrapping ErrInvalidWorkload, or wrap ErrInvalidArchitecture.
func (w *Workload) Validate() error {
	bad := func(field, format string, args ...any) error {
		return &FieldError{Field: field, Msg: Msg(format, args...)}
	}
	intRange := func(field string, v, lo, hi int) error {
		if v < lo || v > hi {
			return bad(field, "must be %d–%d, got %d", lo, hi, v)
		}
		return nil
	}
	if !containsEnum(Frameworks, w.Framework) {
		return bad("framework", "want %s", OrMsg(EnumNames(Frameworks)))
	}
	if !containsEnum(Tasks, w.Task) {
		return bad("task", "want %s", OrMsg(EnumNames(Tasks)))
	}
	if !containsEnum(PrecisionsFor(w.Task), w.Precision) {
		// Whole sentences, so a translation need not assemble "a training
		// precision" from English words.
		valid := OrMsg(EnumNames(PrecisionsFor(w.Task)))
		switch {
		case !w.Task.Training():
			if w.Precision == AMPBF16 || w.Precision == AMPFP16 {
				return bad("precision", "%q is not an inference precision (for inference say bf16 or fp16); want %s", w.Precision, valid)
			}
			return bad("precision", "%q is not an inference precision; want %s", w.Precision, valid)
		}
		return bad("precision", "%q is not a training precision; want %s", w.Precision, valid)
	}
	if w.Task == TaskQLoRA && w.Precision == FP8 {
		// QLoRA computes in bitsandbytes' compute dtype: Linear4bit.forward
		// casts its input to compute_dtype (transformers'
		// BitsAndBytesConfig bnb_4bit_compute_dtype, the Trainer's
		// --bf16/--fp16 or the load dtype) and dequantize_4bit refuses any
		// other than bf16, fp16 or fp32 ("Blockwise 4bit dequantization
		// only supports 16/32-bit floats"; bitsandbytes nn/modules.py,
		// functional.py). Timing it at the fp8 peak was twice as fast as
		// the job runs (walk49: 1.0 h against amp-bf16's 1.8 h).
		return bad("precision", "qlora computes in bf16, fp16 or fp32, not fp8: bitsandbytes dequantizes each 4-bit weight to its compute dtype (bnb_4bit_compute_dtype), and its dequantize_4bit takes only 16- and 32-bit floats; use --precision amp-bf16, or --task lora for fp8 matmuls (Transformer Engine or torchao)")
	}
	if w.Task.Training() && !containsEnum(Optimizers, w.Optimizer) {
		return bad("optimizer", "want %s", OrMsg(EnumNames(Optimizers)))
	}
	if !containsEnum(Recipes, w.Recipe) || !containsEnum(Losses, w.Loss) || !containsEnum(QuantTypes, w.QuantType) {
		return bad("recipe", "recipe %q, loss %q or quant_type %q is not one gpuplan knows; see ParseRecipe, ParseLoss, ParseQuantType", w.Recipe, w.Loss, w.QuantType)
	}
	if !containsEnum(Strategies, w.Strategy) {
		return bad("strategy", "want %s", OrMsg(EnumNames(Strategies)))
	}
	if err := w.Model.Validate(); err != nil {
		return err
	}
	for _, c := range []struct {
		field      string
		v, lo, hi  int
		applicable bool
	}{
		{"batch_size", w.MicroBatch, 1, MaxBatch, true},
		{"seq_len", w.SeqLen, 1, MaxSeqLen, !w.Model.Family.Vision()},
		{"image_size", w.ImageSize, 8, MaxImage, w.Model.Family.Vision()},
		{"grad_accum", w.GradAccum, 1, MaxBatch, true},
		{"gpus", w.GPUs, 1, MaxGPUs, true},
		{"tp", w.TP, 1, MaxGPUs, true},
		{"lora_rank", w.LoRARank, 1, MaxRank, w.Task.Adapters()},
		{"context_len", w.ContextLen, 1, MaxSeqLen, w.Task == TaskInference && !w.Model.Family.Vision()},
		{"sequences", w.Sequences, 1, MaxBatch, w.Task == TaskInference},
		{"gen_tokens", w.GenTokens, 0, MaxSeqLen, w.Task == TaskInference && w.Model.Family.Generative()},
	} {
		if c.applicable {
			if err := intRange(c.field, c.v, c.lo, c.hi); err != nil {
				return err
			}
		}
	}
	// A learned absolute position table has no row past its last
	// position (Architecture.PositionLimit): the model cannot run a longer
	// sequence at all, where a rotary model runs it worse (a warning). An
	// inference sequence holds its context, prompt and generated tokens.
	if n := w.Model.PositionLimit(); n > 0 && !w.Model.Family.Vision() {
		name := cmp.Or(w.Model.Key, w.Model.Name)
		if w.SeqLen > n {
			return bad("seq_len", "%d is above %s's %d learned positions: its position-embedding table has no row past them, so the model cannot run a longer input; give %d or less", w.SeqLen, name, n, n)
		}
		if w.Task == TaskInference && w.ContextLen > n {
			return bad("context_len", "%d is above %s's %d learned positions: its position-embedding table has no row past them, so the model cannot run a longer input; give %d or less", w.ContextLen, name, n, n)
		}
	}
	if w.GPUs%w.TP != 0 {
		return bad("tp", "tensor-parallel degree %d must divide gpus %d", w.TP, w.GPUs)
	}
	if w.TP > 1 && w.Model.HasShape() && w.Model.Heads%w.TP != 0 {
		return bad("tp", "tensor-parallel degree %d must divide the %d attention heads", w.TP, w.Model.Heads)
	}
	if w.TP > 1 && !w.Model.HasShape() {
		return bad("tp", "tensor parallelism needs a transformer shape (layers, hidden, heads)")
	}
	if w.Framework != PyTorch && w.Strategy != Single && w.Strategy != DDP && !(w.Framework == JAX && w.Strategy == FSDP) {
		return bad("strategy", "%s is a PyTorch strategy (DeepSpeed ZeRO, torch FSDP); with %s use ddp (data parallel)%s", w.Strategy, w.Framework,
			map[bool]string{true: " or fsdp (sharded jit)", false: ""}[w.Framework == JAX])
	}
	if w.Task == TaskQLoRA && w.Framework != "" && w.Framework != PyTorch {
		// QLoRA here is bitsandbytes' 4-bit NF4 base weights under PEFT
		// adapters (Dettmers et al., 2023; DequantPasses follows
		// bitsandbytes' MatMul4Bit), both PyTorch libraries. LoRA itself
		// exists for Keras (KerasHub enable_lora) and Flax (nnx.LoRA).
		return bad("framework", "qlora quantizes with bitsandbytes, a PyTorch library; with %s use lora (Keras or Flax adapters) or --framework pytorch", w.Framework)
	}
	if w.Task == TaskInference && w.Strategy.ZeROStage() > 0 {
		return bad("strategy", "%s shards training state; inference splits a model with --tp and replicates it with ddp", w.Strategy)
	}
	if w.OffloadOptimizer && w.Task.Training() && w.Strategy == FSDP {
		return bad("offload_optimizer", "torch FSDP has no optimizer-only offload: CPUOffload(offload_params=True) moves parameters, gradients and the optimizer step to the CPU together; set offload_params (--offload-params) instead")
	}
	if w.OffloadOptimizer && (!w.Task.Training() || !w.Strategy.OffloadsOptimizer()) {
		return bad("offload_optimizer", "DeepSpeed offloads optimizer states only when training with a ZeRO strategy (zero1, zero2 or zero3), got %s %s", cmp.Or(w.Task, TaskTrain), w.Strategy)
	}
	if msg := w.optimizerInBackwardInvalid(); !msg.IsZero() {
		return &FieldError{Field: "optimizer_in_backward", Msg: msg}
	}
	if w.OffloadParams && (!w.Task.Training() || w.Strategy != ZeRO3 && w.Strategy != FSDP) {
		return bad("offload_params", "parameters are offloaded only when training with zero3 (DeepSpeed) or fsdp (torch FSDP CPUOffload), got %s %s", cmp.Or(w.Task, TaskTrain), w.Strategy)
	}
	if w.OffloadParams && w.Strategy == FSDP && w.Framework != PyTorch && w.Framework != "" {
		return bad("offload_params", "FSDP CPU offload is torch FSDP's (CPUOffload); with %s use --framework pytorch", w.Framework)
	}
	if w.OffloadActivations {
		switch {
		case !w.Task.Training():
			return bad("offload_activations", "activations are offloaded only in training, got %s", w.Task)
		case !w.Ckpt():
			return bad("offload_activations", "activation offload moves the checkpointed block inputs (Unsloth's offloaded gradient checkpointing): turn on checkpointing (--checkpointing)")
		case !w.Model.HasShape() || !w.Model.Family.Transformer():
			return bad("offload_activations", "activation offload moves each transformer block's checkpointed input; it needs a transformer shape (layers, hidden, heads)")
		case w.Framework != PyTorch && w.Framework != "":
			return bad("offload_activations", "activation offload is a PyTorch autograd function (Unsloth); with %s use --framework pytorch", w.Framework)
		}
	}
	if w.ChannelsLast && w.Model.Family.Transformer() {
		return bad("channels_last", "channels_last is the memory format of a convolutional network's tensors; %s is a transformer (%s): drop channels_last (--channels-last)", cmp.Or(w.Model.Name, w.Model.Key), w.Model.Family)
	}
	if w.ChannelsLast && w.Framework != PyTorch && w.Framework != "" {
		return bad("channels_last", "channels_last is PyTorch's memory format; %s's GPU convolutions are channels-last already: drop channels_last (--channels-last)", w.Framework)
	}
	if w.Task == TaskInference && w.GenTokens > 0 && w.Model.Head != "" {
		// A classification head scores its input in one forward pass
		// (transformers' GenericForSequenceClassification pools the last
		// token's logits); generated tokens would time a decode it never
		// runs (walk53: --gen-tokens 128 made a 32-minute job 11 hours).
		return bad("gen_tokens", "a %s model generates no tokens: drop gen_tokens (--gen-tokens)", Msg(string(w.Model.Head)))
	}
	if w.Task == TaskInference && w.GenTokens > w.ContextLen && w.Model.Family.Generative() {
		return bad("gen_tokens", "%d generated tokens do not fit a context of %d", w.GenTokens, w.ContextLen)
	}
	if w.Task.Adapters() {
		if !w.Model.HasShape() {
			return bad("task", "%s needs a transformer shape (layers, hidden, heads) to place adapters; give the shape or pick full fine-tuning", w.Task)
		}
		seen := map[string]bool{}
		for _, t := range w.LoRATargets {
			if !ValidLoRATarget(t) {
				return bad("lora_targets", "unknown target %q; want any of q, k, v, o, gate, up, down (or PEFT's q_proj … down_proj, all-linear)", t)
			}
			if seen[t] {
				return bad("lora_targets", "%q is listed twice", t)
			}
			seen[t] = true
		}
	}
	for _, f := range []struct {
		field  string
		v, max float64
	}{
		{"dataset_samples", w.DatasetSamples, MaxDataset},
		{"dataset_tokens", w.DatasetTokens, MaxDataset},
		{"epochs", w.Epochs, MaxEpochs},
	} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v > f.max {
			return bad(f.field, "must be between 0 and %.0e, got %v", f.max, f.v)
		}
	}
	if !(w.Epochs > 0) {
		return bad("epochs", "must be between 0 (excluded) and %.0e, got %v", float64(MaxEpochs), w.Epochs)
	}
	if w.DatasetSamples > 0 && w.DatasetTokens > 0 {
		return bad("dataset_tokens", "give the dataset in samples or in tokens, not both")
	}
	// A job of less than one sample or token in all (a dataset or epochs
	// of 1e-300) trains nothing, and its hours and cost print as figures
	// of 300 digits.
	if n := max(w.DatasetSamples, w.DatasetTokens); n > 0 && n*w.Epochs < 1 {
		return bad("epochs", "%v epochs of a %v-sample or -token dataset is less than one sample or token in all; give at least one", w.Epochs, n)
	}
	if w.LoRADropout < 0 || w.LoRADropout >= 1 || math.IsNaN(w.LoRADropout) {
		return bad("lora_dropout", "must be in [0, 1), got %v", w.LoRADropout)
	}
	if w.GPUsPerNode < 0 || w.GPUsPerNode > MaxGPUsPerNode {
		return bad("gpus_per_node", "must be 1–%d, got %d", MaxGPUsPerNode, w.GPUsPerNode)
	}
	if w.NetworkGbps < 0 || w.NetworkGbps > MaxNetworkGbps || math.IsNaN(w.NetworkGbps) {
		return bad("network_gbps", "must be in (0, %d], got %v", MaxNetworkGbps, w.NetworkGbps)
	}
	if w.MFU != 0 && !(w.MFU >= MinMFU && w.MFU <= 1) { // 0: the calibrated default
		return bad("mfu", "must be %v–1, got %v; an MFU is a fraction: 0.4 for 40%%", MinMFU, w.MFU)
	}
	return nil
}

// MinMFU is the lowest MFU override taken. A floor, not a measurement:
// published training runs report tens of percent (PaLM, Chowdhery et al.
// 2022, Table 3: 46.2%; Megatron-LM, Narayanan et al. 2021, §5.1: 52% of
// peak), and an MFU under 1% is a typo (0.004 meant as 40%) or a value
// that turns the job's hours infinite (attack round 13: --mfu 5e-324
// printed "+Inf years" and broke --json).
const MinMFU = 0.01

// ShardsNothing says that w's sharded or data-parallel strategy has one
// data-parallel GPU to spread over (ZeRO-3 on one GPU keeps the whole
// model there), unless its offload moves states off the GPU, which it
// does on one GPU too (offloadsShard). ok is false otherwise.
func (w *Workload) ShardsNothing() (Message, bool) {
	if w.Strategy != Single && w.Strategy != "" && w.GPUs/max(w.TP, 1) == 1 && !w.offloadsShard() {
		return Msg("strategy %s with one data-parallel GPU shards nothing; use --gpus N", w.Strategy), true
	}
	return Message{}, false
}

// PastPositions says when w's sequence (or, for inference, its context)
// runs past the positions its model was trained for (max_position_
// embeddings). Only a learned position table stops the model there
// (Validate refuses that: PositionLimit); a rotary or ALiBi model runs
// past it, but attends at positions it never trained on and degrades
// unless extended, a rotary model by scaling its RoPE (rope_scaling):
// YaRN (Peng et al. 2023, "YaRN: Efficient Context Window Extension of
// Large Language Models", arXiv 2309.00071, abstract: RoPE models "fail
// to generalize past the sequence length they were trained on");
// Qwen3, pre-trained at 32,768 tokens with max_position_embeddings
// 40960, is validated to 131,072 only with YaRN's rope_scaling
// (QwenLM/Qwen3 docs/source/inference/transformers.md, "Enabling long
// context"). The estimate is still the length asked, so the figures
// stand; the line says what they are for.
func (w *Workload) PastPositions() []Message {
	limit := w.Model.MaxPositions
	if limit <= 0 || w.Model.Family.Vision() {
		return nil
	}
	var out []Message
	if w.SeqLen > limit {
		out = append(out, Msg("seq_len %d exceeds the model's %d positions: the model runs past them but attends at positions it never trained on, and degrades unless extended (a rotary model's RoPE scaled: rope_scaling, e.g. YaRN); the figures are for %d tokens", w.SeqLen, limit, w.SeqLen))
	}
	if w.Task == TaskInference && w.ContextLen > limit {
		out = append(out, Msg("context_len %d exceeds the model's %d positions: the model runs past them but attends at positions it never trained on, and degrades unless extended (a rotary model's RoPE scaled: rope_scaling, e.g. YaRN); the figures are for %d tokens", w.ContextLen, limit, w.ContextLen))
	}
	return out
}

// Warnings returns what is legal but probably not meant, e.g. a multi-GPU
// strategy on one GPU.
func (w *Workload) Warnings() []string { return Strings(w.WarningMessages()) }

// WarningMessages are Warnings as messages, for translation.
func (w *Workload) WarningMessages() []Message {
	var out []Message
	if m, ok := w.GlobalBatchChange(); ok {
		out = append(out, m)
	}
	dp := w.GPUs / max(w.TP, 1)
	if m, ok := w.ShardsNothing(); ok {
		out = append(out, m)
	}
	if w.Strategy == Single && dp > 1 {
		out = append(out, Msg("strategy single with %d GPUs: assuming ddp", w.GPUs))
	}
	out = append(out, w.PastPositions()...)
	if m, ok := w.TPNotExportable(); ok {
		out = append(out, m)
	}
	if m, ok := w.PrequantizedQLoRA(); ok {
		out = append(out, m)
	}
	if m, ok := w.QLoRAExpertsStay16Bit(); ok {
		out = append(out, m)
	}
	if m, ok := w.ParamsBesideShape(); ok {
		out = append(out, m)
	}
	// A job of fewer optimizer steps than data-parallel GPUs (walk49: a
	// LoRA fine-tune on --gpus 100000, 2 steps of a global batch of
	// 100000, "90% range 1 min – 1 min"): each GPU runs a handful of
	// micro-batches, so what the estimate does not time (loading the
	// weights onto every GPU, starting that many ranks) is the job, and
	// its step time is extrapolated far past any measured world size.
	// MaxGPUs stays a typo bound: pre-training runs on tens of thousands
	// of GPUs (Llama 3 405B on 16K H100s, Dubey et al. 2024 §3.3).
	if dp := w.GPUs / max(w.TP, 1); w.Task.Training() && dp > 1 {
		if steps := math.Ceil(datasetSamples(w) * w.Epochs / float64(w.GlobalBatch())); steps > 0 && steps < float64(dp) {
			// "1 optimizer steps" (walk49): the noun follows the count
			// (Plural); "fewer" follows the steps it compares, not the
			// batch ("1 optimizer step of a global batch of 100000, fewer
			// than its 100000 … GPUs" read as the batch being fewer).
			out = append(out, Msg("the job is %s optimizer "+Plural(int(steps), "step")+", fewer than its %d data-parallel GPUs (each step a global batch of %d): starting and loading that many GPUs, which the estimate does not time, would be most of the job; use fewer GPUs", FormatCount(steps), dp, w.GlobalBatch()))
		}
	}
	return out
}

// ParamsBesideShape says when a parameter count given beside a shape
// (--params 7B --layers 2 --hidden 4096) is not the shape's, by more than
// half again either way: the weights, gradients and optimizer states are
// sized from the count and the activations and FLOPs per token from the
// shape, so such a pair estimates no model (walk55: 7B on 2 layers × 4096,
// ~0.4B, printed no warning). ok is false when the two agree or only one
// is given. The shape's count is ParamCount without the given one.
func (w *Workload) ParamsBesideShape() (m Message, ok bool) {
	a := w.Model
	if a.Params <= 0 || !a.HasShape() {
		return Message{}, false
	}
	a.Params = 0
	n := a.ParamCount()
	if n <= 0 || (w.Model.Params <= 1.5*n && n <= 1.5*w.Model.Params) {
		return Message{}, false
	}
	return Msg("%s parameters given, but the shape (%d layers × %d hidden) counts %s: weights, gradients and optimizer states follow the count, activations the shape; give the shape's other sizes (vocab, ffn) or leave the count out",
		FormatCount(w.Model.Params), a.Layers, a.Hidden, FormatCount(n)), true
}

// PrequantizedQLoRA says, for QLoRA of a model whose checkpoint is
// released quantized in another format than bitsandbytes' (its
// config.json quantization_config.quant_method: gpt-oss "mxfp4",
// DeepSeek-V3 "fp8", an AWQ or GPTQ upload), that the job runs on a
// 16-bit copy of it: transformers loads a checkpoint in its own
// quantization and does not take the BitsAndBytesConfig QLoRA passes
// beside it (quantizers/auto.py get_hf_quantizer: a pre-quantized config
// goes through merge_quantization_configs, which keeps the model's, "The
// `quantization_config` from the model will be used", and in recent
// releases raises on a config of another class), and an MXFP4 model does
// not train (quantizer_mxfp4.py is_trainable: "consider dequantizing the
// model first by passing quantization_config=Mxfp4Config(dequantize=
// True)"). The estimate is that copy's; gpuplan export needs its id
// (launch.NewPlan). ok is false for any other job.
func (w *Workload) PrequantizedQLoRA() (m Message, ok bool) {
	q := w.Model.QuantMethod
	if w.Task != TaskQLoRA || q == "" || q == "bitsandbytes" {
		return Message{}, false
	}
	return Msg("%s's checkpoint is released %s-quantized, which transformers loads as it is, not with the bitsandbytes 4-bit config QLoRA passes (quantizers/auto.py merge_quantization_configs): QLoRA runs on a 16-bit copy of it (%v), as estimated here; give gpuplan export that copy with --model-id",
		cmp.Or(w.Model.Name, w.Model.Key, "the model"), q, DequantizedCopyHint(q)), true
}

// DequantizedCopyHint says how to make the 16-bit copy QLoRA of a
// release quantized as quant_method q runs on (PrequantizedQLoRA): for
// MXFP4 (gpt-oss) transformers dequantizes at load (quantizer_mxfp4.py:
// Mxfp4Config(dequantize=True)); for FP8 (DeepSeek-V3) DeepSeek ships
// inference/fp8_cast_bf16.py in github.com/deepseek-ai/DeepSeek-V3,
// which writes bf16 safetensors from the fp8 ones (walk49: the fp8
// refusal gave the gpt-oss recipe); any other format, a bf16 copy.
func DequantizedCopyHint(q string) Message {
	switch q {
	case "mxfp4":
		return Msg("for gpt-oss: from_pretrained with Mxfp4Config(dequantize=True), then save_pretrained")
	case "fp8":
		return Msg("for DeepSeek-V3: inference/fp8_cast_bf16.py in the deepseek-ai/DeepSeek-V3 GitHub repository writes a bf16 copy")
	}
	return Msg("a bf16 copy of it")
}

// QLoRAExpertsStay16Bit says, for QLoRA of an MoE model under the
// Hugging Face trainer, how many parameters of the routed experts stay
// 16-bit and why (the Assumptions line in estimate.go says it too;
// fourBitLinear): most of the model's weights, which a reader of
// "weights 85.19 GiB" for a 4-bit Mixtral took for a bug when it was said
// only there (walk49). LitGPT's experts are nn.Linear, quantized. ok is
// false for any other job.
func (w *Workload) QLoRAExpertsStay16Bit() (m Message, ok bool) {
	x := w.Model.RoutedExpertLinearParams()
	if w.Task != TaskQLoRA || (w.Trainer != TrainerHF && w.Trainer != "") || x <= 0 {
		return Message{}, false
	}
	return Msg("qlora: %s parameters of the routed experts stay 16-bit, not 4-bit: bitsandbytes replaces only nn.Linear layers, and transformers 5 keeps each MoE layer's fused experts as 3-D parameters (transformers integrations/bitsandbytes.py; bitsandbytes#1849); the weights are sized so", FormatCount(x)), true
}

// TPNotExportable says, for a training job split with tensor parallelism
// (TP > 1), that gpuplan export writes no launch file for it: the
// estimate splits the layers as Megatron-LM does (Korthikanti et al.
// 2022 eq. 2), and the files export writes start the Hugging Face
// Trainer, whose data parallel, DeepSpeed ZeRO and FSDP strategies split
// no layer (model/launch TrainingTPRefusal, which export returns with the
// ZeRO-3 and FSDP figures of the same job). estimate, recommend and the
// configurator say it beside the figures, so an offer ranked for such a
// job is not taken for one that can be launched (walk49). ok is false
// for any other job.
func (w *Workload) TPNotExportable() (m Message, ok bool) {
	if !w.Task.Training() || w.TP <= 1 {
		return Message{}, false
	}
	return Msg("tp %d: tensor parallelism is estimated as Megatron-LM splits a model; gpuplan export writes no launch file for it (the Hugging Face Trainer it starts splits no layer): drop --tp and shard with --strategy zero3 or fsdp for a job export can write", w.TP), true
}

// NoAttentionWarning is the one line for a flash-attention answer given
// for a model without attention layers (Family.HasAttention): it is
// ignored, not refused, so one config can serve several models.
func NoAttentionWarning(m *Architecture) Message {
	name := any(m.Name)
	if m.Name == "" {
		name = Msg("this model")
	}
	return Msg("flash attention ignored: %v is a convolutional network (%s), without attention layers; drop --flash-attention (flash_attention)", name, m.Family)
}

// Flash reports whether fused attention is on (false before Defaults when unset).
func (w *Workload) Flash() bool { return w.FlashAttention != nil && *w.FlashAttention }

// Ckpt reports whether activation checkpointing is on (false before Defaults when unset).
func (w *Workload) Ckpt() bool { return w.Checkpointing != nil && *w.Checkpointing }

// Bool returns a pointer to v, for optional settings such as FlashAttention.
func Bool(v bool) *bool { return &v }

// ValidLoRATarget reports whether t names a LoRA target projection: q, k,
// v, o, gate, up or down.
// LoRATargetNames returns targets in gpuplan's names (q k v o gate up
// down), each written as PEFT's target_modules has it too: a Llama-style
// module name (q_proj … down_proj), BERT's query, key and value, and
// "all-linear", every linear layer of the blocks — "all linear/Conv1D
// modules are chosen, excluding the output layer" (peft
// src/peft/tuners/lora/config.py, LoraConfig.target_modules) — which are
// the seven projections. Case and spaces aside; a name it does not know
// is kept for Validate to refuse.
func LoRATargetNames(targets []string) []string {
	if !slices.ContainsFunc(targets, func(t string) bool { return !ValidLoRATarget(t) }) {
		return targets // gpuplan's names already: Defaults runs per estimate, so no copy
	}
	out := make([]string, 0, len(targets))
	for _, t := range targets {
		n := strings.ToLower(strings.TrimSpace(t))
		switch n {
		case "all-linear":
			out = append(out, "q", "k", "v", "o", "gate", "up", "down")
			continue
		case "query":
			n = "q"
		case "key":
			n = "k"
		case "value":
			n = "v"
		}
		if base, ok := strings.CutSuffix(n, "_proj"); ok && ValidLoRATarget(base) {
			n = base
		}
		if !ValidLoRATarget(n) {
			n = t
		}
		out = append(out, n)
	}
	return out
}

func ValidLoRATarget(t string) bool {
	switch t {
	case "q", "k", "v", "o", "gate", "up", "down":
		return true
	}
	return false
}

func containsEnum[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// EnumNames returns list's values as strings, in order.
func EnumNames[T ~string](list []T) []string {
	s := make([]string, len(list))
	for i, v := range list {
		s[i] = string(v)
	}
	return s
}

// offloadsShard reports whether w's strategy offloads its shard to host
// RAM: DeepSpeed's optimizer offload (ZeRO-1–3), its parameter offload
// (ZeRO-3) or torch FSDP's CPU offload. On one data-parallel GPU, where
// nothing is sharded, that still moves the whole model's states (ZeRO-
// Offload "on a single GPU", Ren et al. 2021, abstract; newStepShape).
func (w *Workload) offloadsShard() bool {
	return w.OffloadOptimizer && w.Strategy.OffloadsOptimizer() || w.OffloadParams && (w.Strategy == ZeRO3 || w.Strategy == FSDP)
}

// OffloadsOptimizer reports whether s can offload the optimizer states to
// the CPU (Settings.OffloadOptimizer): DeepSpeed's ZeRO stages 1–3, not
// torch FSDP.
func (s Strategy) OffloadsOptimizer() bool { return s == ZeRO1 || s == ZeRO2 || s == ZeRO3 }
