package model

import (
	"math"
	"strings"
)

// Estimate is what a workload needs: memory per GPU, FLOPs and, on a given
// GPU type, time. Compute returns it.
type Estimate struct {
	// Workload is the input after Defaults (and GenericShape when only a
	// parameter count was given).
	Workload Workload

	Params          float64 // total parameters, all resident
	TrainableParams float64 // parameters with gradients (adapters only for LoRA)
	ActiveParams    float64 // parameters used per token (MoE: experts per token), as the publisher counts them (Architecture.ReportedActiveParams)

	// Memory is the per-GPU breakdown at the peak phase, in bytes; its
	// Total is what nvidia-smi shows for the process (CUDA context and NCCL
	// included), the figure fit compares with GPU.MemoryBytes.
	Memory   Memory
	Overhead Overhead // the parts of Memory.Overhead
	// States holds the model states over the whole step (Weights,
	// Gradients, OptimizerStates) and Gathered, whatever phase peaks: the
	// figures to compare with the ZeRO paper.
	States Memory
	// Recipe is the training recipe the memory follows (TrainingRecipe).
	Recipe Recipe
	// Phases is the memory at each phase of a training step (forward end,
	// backward, optimizer step); inference fills only the first, the rest
	// have an empty Phase (PhaseList skips them). PeakPhase names the one
	// Memory is taken at. An array, so an estimate allocates nothing.
	Phases    [3]PhaseMemory
	PeakPhase Phase
	// TorchAllocated is what torch.cuda.max_memory_allocated() would
	// report: the peak of live tensors. TorchReserved is what
	// max_memory_reserved() would report: that plus the cuBLAS workspace
	// and the caching allocator's fragmentation. Neither includes the CUDA
	// context or NCCL's buffers, which nvidia-smi shows. With TensorFlow or
	// JAX the same two figures are that framework's allocator's: the peak
	// in use (tf.config.experimental.get_memory_info "peak", jax.Device.
	// memory_stats() "peak_bytes_in_use") and the pool it grows to when it
	// does not map the whole GPU up front; the reports name the framework.
	TorchAllocated, TorchReserved float64
	// PagedOptimizer is the part of Memory.OptimizerStates a bitsandbytes
	// paged optimizer keeps in CUDA unified memory (Optimizer.Paged): in
	// the nvidia-smi total, not in TorchAllocated or TorchReserved.
	PagedOptimizer float64
	// MemoryBand is the 90% range of the nvidia-smi total, bytes, from
	// the out-of-sample calibration errors of comparable cases
	// (MemoryCalibration).
	MemoryBand [2]float64
	// AllocatedBand and ReservedBand are the 90% ranges of TorchAllocated
	// and TorchReserved, bytes, from the out-of-sample errors of the
	// calibration cases that read the same figure (memory/allocated…,
	// memory/reserved…: AllocatedCalibration, ReservedCalibration): many
	// sources and users read the torch allocator's figures, not
	// nvidia-smi's, and the suite's errors differ by reading.
	AllocatedBand, ReservedBand [2]float64
	// TimeBand is the 90% range of Hours (TimeCalibration); zero without
	// time.
	TimeBand [2]float64
	// memBand and timeBand are the calibration bands behind MemoryBand
	// and TimeBand (bandFor); timeBand is nil without a GPU.
	memBand, timeBand  *Band
	allocBand, resBand *Band

	FLOPsPerSample float64 // model FLOPs of one training sample (or inference request), no recomputation
	// HardwareFLOPsPerSample adds what activation checkpointing recomputes.
	HardwareFLOPsPerSample float64
	SamplesPerStep         float64 // global batch: micro-batch × grad-accum × data-parallel GPUs
	FLOPsPerStep           float64 // per optimizer step, all GPUs
	Samples                float64 // dataset samples × epochs (0 without a dataset)
	Steps                  float64 // optimizer steps for the whole job (0 without a dataset)
	TotalFLOPs             float64 // the whole job (0 without a dataset)

	// GPU is the GPU type the time is for; nil when none was given.
	GPU        *GPU
	Precision  Precision // what runs on GPU after any fallback (T4 has no bf16: amp-fp16)
	PeakTFLOPS float64   // dense peak of GPU at Precision, 10¹² FLOP/s
	// MFU is the model FLOPs utilisation the time implies: the user's
	// when given, else model FLOPs / (time × GPUs × peak), after
	// recomputation, communication and memory-bound layers.
	MFU float64
	// HFU is the hardware FLOPs utilisation assumed for compute-bound
	// work (DefaultHFU): the matmuls' share of peak; 0 when the user gave
	// an MFU.
	HFU float64
	// HFUAchieved is the hardware FLOPs utilisation the time implies:
	// hardware FLOPs (model FLOPs plus recomputation, Korthikanti et al.,
	// 2022, §5, with attention counted as MFU counts it, the full square)
	// over time × GPUs × peak. Never below MFU; above HFU where a causal
	// kernel skips half the attention it is counted for
	// (CausalAttentionWork). 0 for inference and without a GPU.
	HFUAchieved float64
	// CommSeconds is the communication per optimizer step not hidden
	// behind compute; MemoryBound is whether the roofline's memory time
	// exceeded the compute time (CNNs); InputBound whether the host's
	// input pipeline capped throughput.
	CommSeconds             float64
	MemoryBound, InputBound bool
	Host                    Host

	// SamplesPerSecond is the job's throughput on GPU, all GPUs together.
	SamplesPerSecond float64
	// Hours is wall-clock time for the whole job, GPUHours that × GPUs;
	// both 0 when HasTime is false (no GPU or no dataset).
	Hours, GPUHours float64
	HasTime         bool
	// NoBandwidth is true when timing the workload needs the GPU's memory
	// bandwidth and the catalog has none: HasTime is then false
	// (needsBandwidth).
	NoBandwidth bool

	genericShape bool
	prefillFLOPs float64 // inference: the prompt's share of FLOPsPerSample
}

// Compute estimates w on GPU g (nil for memory and FLOPs only). It applies
// Defaults to a copy of w, validates it, and never returns NaN, Inf or
// negative figures for a workload Validate accepts.
//
// The error is a *FieldError or wraps ErrInvalidWorkload or
// ErrInvalidArchitecture.
func Compute(w Workload, g *GPU) (Estimate, error) {
	w.Defaults()
	if err := w.Validate(); err != nil {
		return Estimate{}, err
	}
	return computeValid(w, g), nil
}

// computeValid is Compute of w, defaulted and valid (Validate nil).
func computeValid(w Workload, g *GPU) Estimate {
	var e Estimate
	if w.Model.Family.Transformer() && !w.Model.HasShape() {
		shape := GenericShape(w.Model.Params)
		shape.Key, shape.Name, shape.Family = w.Model.Key, w.Model.Name, w.Model.Family
		shape.DefaultBatch, shape.DefaultSeqLen = w.Model.DefaultBatch, w.Model.DefaultSeqLen
		if w.Model.Family == FamilyEncoderDecoder {
			shape.Layers /= 2
			shape.DecoderLayers = shape.Layers
		}
		if w.Model.Family == FamilyViT {
			shape.PatchSize, shape.Vocab = 16, 1000
		}
		w.Model = shape
		e.genericShape = true
	}
	if w.Strategy == Single && w.GPUs/w.TP > 1 {
		w.Strategy = DDP
	}
	e.Workload = w
	e.Params = w.Model.ParamCount()
	e.ActiveParams = w.Model.ReportedActiveParams()
	e.TrainableParams = e.Params
	switch {
	case w.Task.Adapters():
		e.TrainableParams = loraParams(&w)
	case w.Task == TaskInference:
		e.TrainableParams = 0
	}
	var peak int
	e.Memory, peak = memory(&e.Workload, &e.Overhead, &e.Phases, &e.States)
	if w.Task.Training() {
		e.Recipe = w.TrainingRecipe()
	}
	e.PeakPhase = e.Phases[peak].Phase
	// Paged optimizer states are in unified memory, outside the caching
	// allocator: nvidia-smi counts them, torch's two figures do not.
	e.PagedOptimizer = pagedOptimizerBytes(&e.Workload, &e.Memory)
	e.TorchAllocated = e.Memory.Tensors() - e.PagedOptimizer
	e.TorchReserved = e.TorchAllocated + e.Overhead.Workspace + e.Overhead.Fragmentation
	e.memBand = bandFor("memory", "nvidia-smi", &e.Workload, g, Host{})
	e.MemoryBand = [2]float64{e.Memory.Total() * e.memBand.Lo, e.Memory.Total() * e.memBand.Hi}
	e.allocBand = bandFor("memory", "allocated", &e.Workload, g, Host{})
	e.AllocatedBand = [2]float64{e.TorchAllocated * e.allocBand.Lo, e.TorchAllocated * e.allocBand.Hi}
	e.resBand = bandFor("memory", "reserved", &e.Workload, g, Host{})
	e.ReservedBand = [2]float64{e.TorchReserved * e.resBand.Lo, e.TorchReserved * e.resBand.Hi}
	e.AllocatedBand, e.ReservedBand = nestedTorchBands(e.TorchAllocated, e.TorchReserved, e.Memory.Total(), e.MemoryBand[1], e.AllocatedBand, e.ReservedBand)

	dp := float64(w.GPUs / w.TP)
	if w.Task == TaskInference {
		e.FLOPsPerSample, e.prefillFLOPs = inferenceFLOPs(&w)
		e.SamplesPerStep = float64(w.Sequences) * dp
	} else {
		e.FLOPsPerSample = TrainFLOPsPerSample(&w)
		e.HardwareFLOPsPerSample = HardwareFLOPsPerSample(&w)
		e.SamplesPerStep = float64(w.MicroBatch*w.GradAccum) * dp
	}
	e.FLOPsPerStep = e.FLOPsPerSample * e.SamplesPerStep
	if n := datasetSamples(&w); n > 0 {
		e.Samples = n * w.Epochs
		e.Steps = math.Ceil(e.Samples / e.SamplesPerStep)
		e.TotalFLOPs = e.FLOPsPerSample * e.Samples
	}
	e.MFU = w.MFU
	if g != nil {
		e.time(g, WorkloadHost(&w, g))
	} else if e.MFU == 0 {
		e.MFU = DefaultMFU(&w)
	}
	return e
}

// inferenceFLOPs returns the forward FLOPs of one request and the part
// spent on its prompt: the prompt (ContextLen − GenTokens tokens) in one
// pass, then GenTokens decode steps each attending to the growing context
// (Kaplan et al., 2020, §2.1: 2·N + 2·L·n_ctx·d_attn per generated token
// for causal attention). Non-generative models are all prompt.
func inferenceFLOPs(w *Workload) (total, prefill float64) {
	a := &w.Model
	if !a.Family.Generative() {
		one := *w
		if !a.Family.Vision() {
			one.SeqLen = w.ContextLen
		}
		f := ForwardFLOPsPerSample(&one)
		return f, f
	}
	prompt := *w
	prompt.SeqLen = max(w.ContextLen-w.GenTokens, 1)
	f := ForwardFLOPsPerSample(&prompt)
	n := matmulParams(w)
	qd := float64(a.Heads * a.EffectiveHeadDim())
	layers := float64(a.Layers)
	if a.Family == FamilyEncoderDecoder {
		layers = float64(a.DecoderLayers)
		n -= float64(a.Layers) * a.layerParams(a.ActiveExperts())
	}
	avgCtx := float64(prompt.SeqLen) + float64(w.GenTokens)/2
	return f + float64(w.GenTokens)*(2*max(n, 0)+4*layers*avgCtx*qd), f
}

// time fills the GPU-dependent fields for g over host h. Training with a
// user MFU: model FLOPs / (GPUs × peak × MFU), exactly. Otherwise the
// step time of stepTime (hardware FLOPs at DefaultHFU, the CNN roofline,
// exposed collectives), capped by the host's input pipeline; the MFU is
// then what that time implies. Inference decoding is bound by memory
// bandwidth as well as compute: each step reads every weight and the KV
// cache once (Pope et al., 2022, §2), so a step takes the longer of the
// two.
func (e *Estimate) time(g *GPU, h Host) {
	w := &e.Workload
	e.GPU, e.Host = g, h
	e.Precision = g.ComputePrecision(w.Precision)
	e.PeakTFLOPS = g.PeakTFLOPS(w.Precision)
	e.SamplesPerSecond, e.Hours, e.GPUHours, e.HasTime = 0, 0, 0, false
	e.CommSeconds, e.MemoryBound, e.InputBound, e.HFU, e.HFUAchieved = 0, false, false, 0, 0
	e.timeBand = bandFor("time", "", w, g, h)
	peak := float64(w.GPUs) * e.PeakTFLOPS * 1e12 // FLOP/s, all GPUs
	e.NoBandwidth = peak > 0 && g.MemoryBandwidthGBps <= 0 && needsBandwidth(w)
	if peak <= 0 || e.NoBandwidth {
		return
	}
	var perSample float64 // seconds per sample, all GPUs
	switch {
	case w.Task == TaskInference:
		mfu := w.MFU
		if mfu == 0 {
			mfu = DefaultMFU(w)
		}
		e.MFU = mfu
		rate := peak * mfu
		perSample = e.FLOPsPerSample / rate
		if w.Model.Family.Generative() && g.MemoryBandwidthGBps > 0 {
			// Per replica: a batch of Sequences requests.
			replicas := float64(w.GPUs / w.TP)
			replicaRate := rate / replicas
			prefill := e.prefillFLOPs * float64(w.Sequences) / replicaRate
			decodeCompute := (e.FLOPsPerSample - e.prefillFLOPs) * float64(w.Sequences) / replicaRate
			decodeMemory := float64(w.GenTokens) * (e.Memory.Weights + e.Memory.KVCache/2) / (g.MemoryBandwidthGBps * 1e9 * MBU)
			batch := prefill + max(decodeCompute, decodeMemory)
			perSample = batch / (float64(w.Sequences) * replicas)
		}
	case w.MFU > 0:
		e.MFU = w.MFU
		perSample = e.FLOPsPerSample / (peak * w.MFU)
	default:
		e.HFU = DefaultHFU(w, g)
		step, exposed := e.stepTime(g, h)
		if step <= 0 {
			return
		}
		e.CommSeconds = exposed
		perSample = step / e.SamplesPerStep
		if !w.Model.Family.Transformer() {
			e.MemoryBound = step-exposed > e.HardwareFLOPsPerSample*e.SamplesPerStep/(peak*e.HFU)*1.0001
		}
		if c := inputCap(w, h); 1/perSample > c {
			perSample, e.InputBound = 1/c, true
		}
		e.MFU = e.FLOPsPerSample / (perSample * peak)
	}
	if perSample > 0 {
		e.SamplesPerSecond = 1 / perSample
		if w.Task.Training() {
			e.HFUAchieved = e.HardwareFLOPsPerSample / (perSample * peak)
		}
	}
	if e.Samples > 0 {
		e.Hours = e.Samples * perSample / 3600
		e.GPUHours = e.Hours * float64(w.GPUs)
		e.HasTime = true
		e.TimeBand = [2]float64{e.Hours * e.timeBand.Lo, e.Hours * e.timeBand.Hi}
	}
}

// nestedTorchBands returns the allocated and reserved ranges with their
// tops kept inside what the nvidia-smi range allows. The three ranges come
// from different calibration groups (bandFor: memory/nvidia-smi…,
// memory/allocated…, memory/reserved…), each with its own spread, so on
// their own the reserved top could exceed the nvidia-smi top (the
// README's LoRA example of round 3: reserved up to 86.60 GiB, nvidia-smi up to 37.74 GiB).
// But the figures nest: nvidia-smi shows the caching allocator's reserved
// segments plus memory outside it, the CUDA context, NCCL's buffers and
// paged optimizer states (PyTorch "CUDA semantics: memory management":
// "unused memory managed by the allocator will still show as if used in
// nvidia-smi"; torch.cuda.memory_reserved ≥ memory_allocated, as the
// allocator hands out blocks of the segments it reserved), so reserved ≤
// nvidia-smi − that outside part and allocated ≤ reserved. The outside
// part is this estimate's (total − reserved); the tops are cut to
// smiTop − outside and to the reserved top, never below the point
// estimates. The bottoms and the bands' ratios (the coverage the suite
// accounts for, data TestCalibration) are left as they are.
func nestedTorchBands(alloc, reserved, total, smiTop float64, allocBand, resBand [2]float64) (a, r [2]float64) {
	a, r = allocBand, resBand
	if top := smiTop - (total - reserved); r[1] > top {
		r[1] = max(top, reserved)
	}
	if a[1] > r[1] {
		a[1] = max(r[1], alloc)
	}
	return a, r
}

// MemoryCalibration returns the band behind MemoryBand: the calibration
// group of the nvidia-smi total and its out-of-sample errors.
func (e *Estimate) MemoryCalibration() Band {
	if e.memBand == nil {
		return fallbackBand
	}
	return *e.memBand
}

// AllocatedCalibration returns the band behind AllocatedBand: the
// calibration group of max_memory_allocated readings.
func (e *Estimate) AllocatedCalibration() Band {
	if e.allocBand == nil {
		return fallbackBand
	}
	return *e.allocBand
}

// ReservedCalibration returns the band behind ReservedBand: the
// calibration group of max_memory_reserved readings.
func (e *Estimate) ReservedCalibration() Band {
	if e.resBand == nil {
		return fallbackBand
	}
	return *e.resBand
}

// TimeCalibration returns the band behind TimeBand; the fallback band
// without a GPU.
func (e *Estimate) TimeCalibration() Band {
	if e.timeBand == nil {
		return fallbackBand
	}
	return *e.timeBand
}

// OOMChance returns the probability, 0.05–0.95, that the job needs more
// than capacity bytes per GPU: where capacity falls in the out-of-sample
// error distribution of comparable calibration cases (MemoryCalibration,
// Band.Exceedance of capacity ÷ ResidentNeed). It is the chance of
// running out of memory a borderline verdict states, so capacity is
// OOMBytes (what the driver exposes), not UsableBytes: FitMargin is our
// planning margin, and a job that eats into it still runs. 0.05 means at
// most 5% (the range's top is within capacity), 0.95 at least 95%; 0
// when the estimate has no memory.
func (e *Estimate) OOMChance(capacity float64) float64 {
	total := e.Memory.Total()
	if total <= 0 {
		return 0
	}
	b := e.MemoryCalibration()
	return b.Exceedance(capacity / e.ResidentNeed())
}

// OverrunChance returns the probability, 0.05–0.95, that the job takes
// longer than hours: where hours falls in the out-of-sample error
// distribution of comparable calibration cases (TimeCalibration,
// Band.Exceedance), as OOMChance does for memory. It is the chance of
// missing a deadline that falls inside TimeBand; 0 without a time.
func (e *Estimate) OverrunChance(hours float64) float64 {
	if !e.HasTime || e.Hours <= 0 {
		return 0
	}
	b := e.TimeCalibration()
	return b.Exceedance(hours / e.Hours)
}

// PhaseList returns the phases e has: three for training, one for
// inference.
func (e *Estimate) PhaseList() []PhaseMemory {
	if e.Phases[1].Phase == "" {
		return e.Phases[:1]
	}
	return e.Phases[:]
}

// Fits reports whether the per-GPU total fits capBytes.
func (e *Estimate) Fits(capBytes float64) bool { return e.ResidentNeed() <= capBytes }

// Assumptions returns the choices behind the numbers, one sentence each,
// for reports: formulas, constants, defaults and fallbacks.
func (e *Estimate) Assumptions() []string { return Strings(e.AssumptionMessages()) }

// AssumptionMessages are Assumptions as messages, for translation.
func (e *Estimate) AssumptionMessages() []Message {
	w := &e.Workload
	a := &w.Model
	var out []Message
	add := func(format string, args ...any) { out = append(out, Msg(format, args...)) }
	if e.genericShape {
		add("only the parameter count is known: activations and FLOPs use a generic decoder shape of %d layers × %d hidden (Kaplan et al. 2020, N ≈ 12·L·h², GPT-3 aspect ratio); model-state memory is exact", a.Layers, a.Hidden)
	}
	if note := w.BatchNote(); w.Task.Training() && !note.IsZero() {
		out = append(out, note)
	}
	if w.Task.Training() {
		rb := bytesFor(e.Recipe)
		ob := rb.master + optimizerStateBytes(w.Optimizer, rb.state, a)
		add("recipe %s: %s", e.Recipe, Msg(recipeNote(e.Recipe)))
		switch w.Task {
		case TaskLoRA, TaskQLoRA:
			base := Msg("16-bit")
			if e.Recipe == RecipeFP32 {
				base = Msg("fp32")
			}
			if w.Task == TaskQLoRA {
				q, dq := w.FourBit()
				dqs := Msg("fp32 absmax per 64 values")
				if dq {
					dqs = Msg("double-quantized absmax (8-bit per 64 values, fp32 per 256 absmax)")
				}
				base = Msg("bitsandbytes %s with %s, %.4g B/param, for block linears, 16-bit for embeddings, norms and head; the 16-bit input of every 4-bit matmul is saved for backward", strings.ToUpper(string(q)), dqs, FourBitBytesPerParam(dq))
				if e.Recipe == RecipeFP32 || kbitFP32(w, e.Recipe) {
					base = Msg("bitsandbytes %s with %s, %.4g B/param, for block linears, fp32 for embeddings, norms and head; the 16-bit input of every 4-bit matmul is saved for backward", strings.ToUpper(string(q)), dqs, FourBitBytesPerParam(dq))
				}
			}
			add("frozen base weights: %s; LoRA rank %d on %v: %.3g trainable parameters with %.4g bytes each of weight, gradient and optimizer state", base, w.LoRARank, w.LoRATargets, e.TrainableParams, rb.weight+rb.grad+ob)
			if x := a.RoutedExpertLinearParams(); w.Task == TaskQLoRA && w.Trainer == TrainerHF && x > 0 {
				// fourBitLinear: bitsandbytes replaces nn.Linear only.
				add("routed experts: %s parameters stay 16-bit, not 4-bit: transformers 5, which the exported script installs, keeps each MoE layer's experts as 3-D parameters, and bitsandbytes replaces nn.Linear layers only (transformers integrations/bitsandbytes.py; bitsandbytes#1849); attention, shared experts and dense MLPs are 4-bit", FormatCount(x))
			}
			if kbitFP32(w, e.Recipe) {
				// peft src/peft/utils/other.py prepare_model_for_kbit_training; see kbitFP32.
				add("embeddings, norms and head in fp32 and, without autocast, the hidden states and logits too: PEFT's prepare_model_for_kbit_training casts every 16-bit parameter that is not 4-bit to fp32 (peft utils/other.py), as PEFT's QLoRA examples and TRL's SFTTrainer before 0.26 call it (bitsandbytes Linear4bit returns its input's dtype, so the fp32 embedding output stays fp32 through every block); with Trainer bf16=True TRL puts embeddings and head back to bf16, and TRL 0.26+ casts nothing")
			}
		default:
			add("model states: %.4g bytes/parameter = %.0f weights + %.0f gradients + %.4g optimizer (%s; ZeRO paper §3.1 accounting)", rb.weight+rb.grad+ob, rb.weight, rb.grad, ob, w.Optimizer)
		}
		if e.PagedOptimizer > 0 {
			add("paged optimizer: %.2f GiB of optimizer states in CUDA unified memory (bitsandbytes get_paged, cudaMallocManaged): nvidia-smi shows them while resident, torch max_memory_allocated and max_memory_reserved do not count them", e.PagedOptimizer/GiB)
		}
		if w.OptimizerInBackward {
			add("optimizer in backward: each parameter is stepped by its post-accumulate-grad hook and its gradient freed, so about one parameter's gradient is live (%.2f GiB), not all of them (torchtune optimizer_in_bwd)", e.States.Gradients/GiB)
		}
		if e.Memory.CastCache > 0 || e.Recipe == RecipeAutocast {
			add("torch.autocast keeps a 16-bit cast of every matmul weight until backward and saves norm inputs and softmax in fp32 (autocast_mode.cpp fp32 list)")
		}
		switch w.Framework {
		case TensorFlow:
			// tf.config.experimental.get_memory_info: "'peak': The peak
			// memory used by the device across the run of the program",
			// "only the current and peak memory that TensorFlow is
			// actually using, not the memory that TensorFlow has
			// allocated on the GPU" (tensorflow/python/framework/config.py).
			add("peak at the %s phase: in use %.2f GiB (TensorFlow get_memory_info peak), allocator pool %.2f GiB with memory growth on (TensorFlow maps nearly all GPU memory without it), nvidia-smi %.2f GiB", Msg(string(e.PeakPhase)), e.TorchAllocated/GiB, e.TorchReserved/GiB, e.Memory.Total()/GiB)
		case JAX:
			// jax.Device.memory_stats() reads XLA's allocator statistics
			// (xla/stream_executor/allocator_stats.h: bytes_in_use,
			// peak_bytes_in_use, bytes_limit).
			add("peak at the %s phase: in use %.2f GiB (JAX memory_stats peak_bytes_in_use), allocator pool %.2f GiB without preallocation (XLA_PYTHON_CLIENT_PREALLOCATE=false), nvidia-smi %.2f GiB", Msg(string(e.PeakPhase)), e.TorchAllocated/GiB, e.TorchReserved/GiB, e.Memory.Total()/GiB)
		default:
			add("peak at the %s phase: allocated %.2f GiB (torch max_memory_allocated), reserved %.2f GiB (max_memory_reserved), nvidia-smi %.2f GiB", Msg(string(e.PeakPhase)), e.TorchAllocated/GiB, e.TorchReserved/GiB, e.Memory.Total()/GiB)
		}
		if st := w.Strategy.ZeROStage(); st > 0 && w.GPUs/w.TP > 1 {
			add("%s over %d data-parallel GPUs shards %s; activations are never sharded", w.Strategy, w.GPUs/w.TP, Msg([...]string{"", "optimizer states", "optimizer states and gradients", "parameters, gradients and optimizer states"}[st]))
		}
		if st := w.Strategy.ZeROStage(); st > 0 && w.GPUs/w.TP == 1 && w.offloadsShard() {
			add("%s on one data-parallel GPU shards nothing: its partition is the whole model, and offload moves it to host RAM as on more GPUs", w.Strategy)
		}
		if st := w.Strategy.ZeROStage(); st == 3 && (w.GPUs/w.TP > 1 || w.OffloadParams) {
			if e.Recipe == RecipeDeepSpeed {
				add("ZeRO-3 gathers the largest module whole plus stage3_prefetch_bucket_size %.0e elements, and keeps gathered what is reused within stage3_max_reuse_distance %.0e (where backward begins: the last modules and the head), prefetching up to stage3_max_live_parameters %.0e, which bounds only the prefetch (DeepSpeed defaults), as a line of its own", DSPrefetchBucketSize, DSMaxReuseDistance, DSMaxLiveParameters)
			} else {
				add("FSDP holds the root unit (embeddings, head) and two blocks unsharded in 16-bit (current and prefetched), as a line of its own")
			}
		}
		if e.Recipe == RecipeDeepSpeed && w.GPUs/w.TP > 1 {
			add("DeepSpeed reduce bucket: reduce_bucket_size %.0e elements in 16-bit (DeepSpeed default; `gpuplan export` sets no bucket sizes)", DSReduceBucketSize)
		}
		if a.HasShape() {
			attn := Msg("fused attention (FlashAttention, or PyTorch's memory-efficient SDPA in fp32 and before compute capability 8.0): no s² scores stored")
			if !w.Flash() {
				attn = Msg("no fused attention: the s² scores, softmax and dropout are stored")
			}
			ckpt := Msg("no checkpointing")
			if w.Ckpt() {
				ckpt = Msg("full checkpointing keeps each block's input and recomputes one block at a time (adds one forward pass)")
			}
			drop := Msg("no dropout")
			if a.Dropout {
				drop = Msg("dropout masks included")
			}
			add("activations: Korthikanti et al. 2022 per-block terms (%s), %s, %s", drop, attn, ckpt)
			if countsLogits(w) {
				lb := activationBytes(w.Precision) // as trainingActivations: fp32 logits from an fp32 head without autocast
				if e.Recipe == RecipeFP32 || kbitFP32(w, e.Recipe) {
					lb = 4
				}
				switch w.LossImpl() {
				case LossFused:
					add("logits: %d-token vocabulary, fused cross-entropy on the %.0f-bit logits with an in-place gradient", a.Vocab, 8*lb)
				case LossChunked:
					add("logits: %d-token vocabulary, chunked linear cross-entropy: one of %d chunks of logits live", a.Vocab, ChunkedLossChunks)
				case LossNative:
					add("logits: %d-token vocabulary, torch cross_entropy on the %.0f-bit logits: logits, log-softmax and their gradients", a.Vocab, 8*lb)
				default:
					if lb == 4 {
						add("logits: %d-token vocabulary, Hugging Face loss on fp32 logits (logits.float() copies nothing): logits, the fp32 log-softmax and two fp32 gradients", a.Vocab)
						break
					}
					add("logits: %d-token vocabulary, Hugging Face loss: logits, their fp32 copy, the fp32 log-softmax and two fp32 gradients", a.Vocab)
				}
			}
			switch a.Head {
			case HeadSequenceClassification:
				add("head: sequence classification, a score of %s on every position and the loss on the last non-pad position's (transformers GenericForSequenceClassification): no LM head, no vocabulary logits", CountMsg(a.Labels, "label"))
			case HeadTokenClassification:
				add("head: token classification, a score of %s on every position with the loss over them (transformers GenericForTokenClassification): no LM head, no vocabulary logits", CountMsg(a.Labels, "label"))
			}
		} else {
			add("activations: %.4g MiB per sample at %d px (16-bit) from the catalog, scaled by (image size / %d)²", a.ActivationMiBPerSample, a.ImageSize, a.ImageSize)
		}
	} else {
		add("inference weights at %s (embeddings, norms and head in 16-bit for int8/int4/fp8; group-128 scales)", w.Precision)
		if kvCache(w) > 0 {
			if a.SlidingWindow > 0 && a.SlidingLayers > 0 && a.Family == FamilyDecoder {
				add("KV cache: 2 × (%d full-attention layers × %d tokens + %d sliding-window layers × their last %d tokens) × %d KV heads × %d head dim × %s at %.0f bytes (transformers' DynamicSlidingWindowLayer keeps sliding_window − 1 tokens)",
					a.FullAttentionLayers(), w.ContextLen, a.SlidingLayers, min(w.ContextLen, max(a.SlidingWindow-1, 1)), a.EffectiveKVHeads(), a.EffectiveHeadDim(), CountMsg(w.Sequences, "sequence"), kvBytes(w.Precision))
			} else {
				add("KV cache: 2 × %d layers × %d KV heads × %d head dim × %d tokens × %s at %.0f bytes", max(a.Layers, a.DecoderLayers), a.EffectiveKVHeads(), a.EffectiveHeadDim(), w.ContextLen, CountMsg(w.Sequences, "sequence"), kvBytes(w.Precision))
			}
			if a.Head != "" { // one forward pass with use_cache, the config's default
				add("activations: %s in one forward pass (the classifier's Hugging Face forward, which keeps the prompt's KV cache by the config's use_cache)", CountMsg(w.Sequences, "sequence"))
			} else {
				add("activations: %s prefilled at once (as Hugging Face generate does); servers with chunked prefill (vLLM) need less", CountMsg(w.Sequences, "sequence"))
			}
		}
	}
	if w.TP > 1 {
		add("tensor parallel over %d GPUs splits weights, states and most activations (Megatron-LM, Korthikanti et al. 2022 §4.2.1)", w.TP)
	}
	o := e.Overhead
	add("overhead: CUDA context %.0f MiB, workspaces %.0f MiB, NCCL %.0f MiB, allocator fragmentation %.0f%% of activations and gradients", o.CUDAContext/MiB, o.Workspace/MiB, o.Communication/MiB, w.tuning().FragmentationFraction*100)
	switch w.Framework {
	case JAX:
		add("JAX preallocates 75%% of GPU memory by default (XLA_PYTHON_CLIENT_PREALLOCATE); the figure here is what the job needs")
	case TensorFlow:
		add("TensorFlow maps nearly all GPU memory by default; set memory growth to see what the job needs")
	}
	fsdpOffload := w.OffloadParams && w.Strategy == FSDP
	actHost := 0.0
	if w.OffloadActivations {
		actHost = trainingActivations(w, w.TrainingRecipe()).ckptInputs
	}
	if fsdpOffload {
		// No sourced CPU optimizer throughput: say so rather than guess.
		add("FSDP CPU offload (CPUOffload(offload_params=True)): parameter shards, gradients and optimizer states in host RAM, %.2f GiB per GPU; the CPU optimizer step is not timed, so the time and cost are a lower bound", (e.States.HostOffload-actHost)/GiB)
	}
	if w.OffloadActivations {
		add("activation offload (Unsloth's offloaded gradient checkpointing): %.2f GiB of checkpointed block inputs per GPU in host RAM, one block's back on the GPU at a time", actHost/GiB)
	}
	if e.GPU != nil {
		switch {
		case w.Precision == INT8 || w.Precision == INT4:
			add("weight-only %s: matmuls run at the %s rate after dequantization; decoding is bound by memory bandwidth", w.Precision, e.Precision)
		case e.Precision != w.Precision:
			add("%s has no published %s rate: timed at %s", e.GPU.Name, w.Precision, e.Precision)
		}
		if m, ok := fp16Overflow(w, e.GPU); ok {
			out = append(out, m)
		}
		// QLoRA's time is LoRA's plus dequantSeconds; say so, and say when
		// it is LoRA's alone (a given MFU, no memory bandwidth).
		if n := DequantPasses(w); n > 0 && w.MFU == 0 && e.GPU.MemoryBandwidthGBps > 0 {
			params, _ := fourBitLinear(w)
			add("QLoRA is timed as LoRA plus the dequantization: bitsandbytes turns each 4-bit weight into a 16-bit one %d× per micro-batch (MatMul4Bit: forward above %d tokens, backward, recomputation), %.3g ms per micro-batch in all for %s weights at %.0f%% of %.0f GB/s (the decode MBU: bitsandbytes publishes no dequantize throughput); the matmuls run at the 16-bit rate",
				n, bnbFusedMaxTokens, dequantSeconds(w, e.GPU)*1e3, FormatCount(params/float64(w.TP)), MBU*100, e.GPU.MemoryBandwidthGBps)
		} else if n > 0 {
			add("QLoRA is timed as LoRA: the dequantization of the 4-bit weights bitsandbytes runs before each matmul (MatMul4Bit) is not costed (an MFU given, or no memory bandwidth for the GPU)")
		}
		if w.MFU == 0 && NCHWTensorCores(w, e.GPU) {
			if f := w.tuning().NCHWFactor; f > 1 {
				add("convolutions in PyTorch's default NCHW layout: tensor cores take NHWC, so each convolution's tensors are transposed; the step is timed %.2f× longer (fitted to the calibration's NCHW runs); set channels_last (--channels-last) if the model and its inputs are channels_last", f)
			}
		}
		switch {
		case w.MFU > 0:
			add("time: %.3g dense TFLOPS (%s) × MFU %.2f as given, model FLOPs only", e.PeakTFLOPS, e.Precision, w.MFU)
		case w.Task == TaskInference:
			add("time: %.3g dense TFLOPS (%s) × MFU %.2f (default for this family and precision)", e.PeakTFLOPS, e.Precision, e.MFU)
		default:
			var attn any = ""
			if w.Flash() && w.Model.Family == FamilyDecoder && a.HasShape() {
				attn = Msg("; fused attention at %.0f%% of that, a causal kernel running about half the attention FLOPs counted (Dao 2023, §3.1.1)", w.tuning().AttentionEfficiency*100)
			}
			add("time: %.3g dense TFLOPS (%s), the matmuls at %.2f of it (by family, GPU generation and width; llm-foundry, DeepLearningExamples, Llama 2)%s; HFU %.2f (recomputed FLOPs counted), MFU %.2f (PaLM App. B counting)", e.PeakTFLOPS, e.Precision, e.HFU, attn, e.HFUAchieved, e.MFU)
		}
		if e.MemoryBound {
			add("memory-bound: moving %.3g× the saved activations at %.0f%% of %.0f GB/s takes longer than the FLOPs (roofline)", w.tuning().CNNTrafficFactor, MBU*100, e.GPU.MemoryBandwidthGBps)
		}
		if w.GPUs/w.TP > 1 && w.Task.Training() && w.MFU == 0 {
			bw := e.Host.IntraGBps
			if w.GPUs > e.Host.GPUsPerNode && e.Host.InterGBps > 0 {
				bw = min(bw, e.Host.InterGBps)
			}
			add("collectives: %s ring traffic over %.3g GB/s per GPU (%s per node); %.3g s per step not hidden behind compute", w.Strategy, bw, CountMsg(e.Host.GPUsPerNode, "GPU"), e.CommSeconds)
		}
		if m, ok := e.NetworkMessage(); ok {
			out = append(out, m)
		}
		if !fsdpOffload && (w.OffloadOptimizer || w.OffloadParams) {
			// No sourced throughput for DeepSpeedCPUAdam or parameter
			// fetches over PCIe on these hosts: say so rather than guess.
			add("ZeRO-Offload: %.2f GiB per GPU in host RAM; the CPU optimizer step and the PCIe traffic of offloading are not timed, so the time and cost are a lower bound", (e.States.HostOffload-actHost)/GiB)
		}
		if fsdpOffload || w.OffloadActivations {
			h2d, d2h := hostTransferBytes(w)
			if link := hostLinkGBps(e.GPU); link > 0 {
				add("host copies: %.3g GB to and %.3g GB from the GPU per step over PCIe at %.0f GB/s each way (the link rate: a lower bound), %.3g s, hidden behind compute where they fit (side streams)", h2d/1e9, d2h/1e9, link, hostTransferSeconds(w, e.GPU))
			} else {
				add("host copies: %.3g GB to and %.3g GB from the GPU per step are not timed: the catalog has no host-link figure for %s (its interconnect is GPU-to-GPU), so the time is a lower bound", h2d/1e9, d2h/1e9, e.GPU.Name)
			}
		}
		if e.InputBound {
			add("input pipeline: %d vCPUs × %.0f images/s cap the throughput", e.Host.VCPUs, e.Host.ImagesPerVCPU)
		} else if a.Family.Vision() && w.Task.Training() && e.Host.ImagesPerVCPU <= 0 {
			// No sourced decode rate per vCPU: the calibration runs
			// (DeepLearningExamples) decode on the GPU with DALI.
			add("input pipeline not modelled: the time assumes decoding keeps up, as with GPU decoding (NVIDIA DALI, used by the DeepLearningExamples runs this is calibrated on); a CPU JPEG pipeline can hold many-GPU hosts below this")
		}
		if w.Task == TaskInference && a.Family.Generative() && w.GenTokens > 0 {
			add("decoding is timed as the slower of compute and reading weights + KV cache at %.0f%% of %.0f GB/s", MBU*100, e.GPU.MemoryBandwidthGBps)
		}
	}
	mb := e.MemoryCalibration()
	add("90%% range: %.2f–%.2f GiB per GPU (nvidia-smi), from the out-of-sample errors of %d calibration cases from %d sources (%s)", e.MemoryBand[0]/GiB, e.MemoryBand[1]/GiB, mb.Cases, mb.Sources, mb.Group)
	if e.HasTime {
		tb := e.TimeCalibration()
		add("90%% range of the time: %.3g–%.3g h, from the out-of-sample errors of %d calibration cases from %d sources (%s)", e.TimeBand[0], e.TimeBand[1], tb.Cases, tb.Sources, tb.Group)
		if m, ok := e.UncalibratedNote(); ok {
			out = append(out, m)
		}
	}
	if e.Samples == 0 {
		add("no dataset given: job time and cost are not computed")
	}
	return out
}

// NetworkMessage says how a job on more GPUs than one node holds was
// timed between nodes: over which network, per node and per GPU, and where
// the figure comes from (Workload.NetworkFrom), or that no network was
// costed (a front end that did not call Catalog.FillNetwork). ok is false
// on one node, without a GPU and for inference.
func (e *Estimate) NetworkMessage() (m Message, ok bool) {
	w := &e.Workload
	h := &e.Host
	if e.GPU == nil || !w.Task.Training() || h.GPUsPerNode <= 0 || w.GPUs <= h.GPUsPerNode {
		return Message{}, false
	}
	nodes := CountMsg((w.GPUs+h.GPUsPerNode-1)/h.GPUsPerNode, "node")
	per := CountMsg(h.GPUsPerNode, "GPU")
	if h.InterGBps <= 0 {
		return Msg("multi-node: %s of %s timed as one NVLink domain: no node network given (--network-gbps)", nodes, per), true
	}
	var from Message
	switch w.NetworkFrom {
	case NetworkCatalog:
		from = Msg("the median of the catalog's %s of %s with %s (--network-gbps for yours)", CountMsg(w.NetworkTypes, "instance type"), e.GPU.Name, per)
	case NetworkAssumedSource:
		from = Msg("assumed: the catalog documents no network for %s nodes with %s, so the slowest it documents, as recommend assumes (--network-gbps for yours)", e.GPU.Name, per)
	case NetworkInstance:
		from = Msg("the instance type's own figure in the catalog (--network-gbps for yours)")
	case NetworkNoFabric:
		from = Msg("assumed: the catalog documents neither a network figure nor InfiniBand, EFA or RDMA for the instance type, so the slowest network it documents, as recommend times it; the time errs long if its instances share more (--network-gbps for yours)")
	default:
		from = Msg("as given (--network-gbps)")
	}
	return Msg("multi-node: %s of %s; node-to-node traffic over %.0f Gbps per node, %.3g GB/s per GPU each way, %s", nodes, per, w.NetworkGbps, h.InterGBps, from), true
}
