package serve

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/gpuplan/gpuplan/model"
)

// WeightFormat is how a served model's weights are stored, spelled as in
// TOML and as vLLM's --quantization names them (bf16 and fp16 are --dtype).
type WeightFormat string

// Weight formats.
const (
	WeightBF16 WeightFormat = "bf16"
	WeightFP16 WeightFormat = "fp16"
	WeightFP8  WeightFormat = "fp8"  // 8-bit float weights (compressed-tensors, ModelOpt or --quantization fp8)
	WeightInt8 WeightFormat = "int8" // 8-bit integer weights, W8A16 with group-128 scales
	WeightAWQ  WeightFormat = "awq"  // 4-bit AWQ, group size 128
	WeightGPTQ WeightFormat = "gptq" // 4-bit GPTQ, group size 128
	// WeightBNB is bitsandbytes 4-bit NF4: a checkpoint quantized with
	// bitsandbytes (config.json quant_method "bitsandbytes"), or a 16-bit
	// one vLLM quantizes as it loads; vLLM serves both with --quantization
	// bitsandbytes (docs.vllm.ai, features/quantization/bnb.md).
	WeightBNB WeightFormat = "bitsandbytes"
	// WeightMXFP4 is OCP Microscaling MXFP4 on an MoE's experts, the rest
	// 16-bit: gpt-oss's released checkpoint (config.json
	// quantization_config quant_method "mxfp4", modules_to_not_convert
	// self_attn, mlp.router, embed_tokens, lm_head), which vLLM serves as
	// is (vllm/model_executor/layers/quantization/mxfp4.py).
	WeightMXFP4 WeightFormat = "mxfp4"
	// WeightFP32 is a 16-bit checkpoint loaded in float32 (--dtype
	// float32), 4 bytes a weight: what vLLM's --dtype auto loads a model
	// whose type refuses float16 (FP16Refused: Gemma 2 and 3) on a GPU
	// without bf16 (FormatFor). It is what a plan falls back to, not a
	// format offered (WeightFormats); ParseWeightFormat reads it back
	// from what gpuplan writes (a probe's weight_format).
	WeightFP32 WeightFormat = "fp32"
)

// ReleasedFormat returns the weight format of a's released checkpoint when
// it is quantized in a format vLLM serves as it is stored (a's QuantMethod,
// config.json quantization_config.quant_method): "fp8" (DeepSeek-V3 and R1,
// block-quantized, served by vllm/model_executor/layers/quantization/fp8.py)
// and "mxfp4" on an MoE's experts (gpt-oss, WeightMXFP4); and, for a
// catalog model named by a quantized release's id (a.Release:
// Qwen/Qwen3-32B-AWQ), that release's AWQ, GPTQ (8-bit: int8),
// bitsandbytes or compressed-tensors (W8A8: int8; W4A16: GPTQ) weights. ok is false for any other model, which serves at
// its precision (a config.json's AWQ, GPTQ or bitsandbytes checkpoint
// through the precision its quantization_config gives).
func ReleasedFormat(a *model.Architecture) (f WeightFormat, ok bool) {
	switch {
	case a.QuantMethod == "fp8":
		return WeightFP8, true
	case a.QuantMethod == "mxfp4" && a.ExpertLinearParams() > 0:
		return WeightMXFP4, true
	case a.Release == "":
	case a.QuantMethod == "awq":
		return WeightAWQ, true
	case a.QuantMethod == "gptq" && a.QuantBits == 8:
		return WeightInt8, true
	case a.QuantMethod == "gptq":
		return WeightGPTQ, true
	case a.QuantMethod == "bitsandbytes" && a.QuantBits == 4:
		return WeightBNB, true
	// Red Hat AI's compressed-tensors releases (model.quantReleases): W8A8
	// is int8 weights and activations (compressed_tensors_w8a8_int8.py,
	// as --weight-format int8); W4A16 stores 4-bit weights in groups of
	// 128 as GPTQ does, served through the same mixed-precision kernels
	// (compressed_tensors_wNa16.py → choose_mp_linear_kernel: Marlin,
	// Machete, Exllama), so it is planned as GPTQ 4-bit.
	case a.QuantMethod == "compressed-tensors" && a.QuantBits == 8:
		return WeightInt8, true
	case a.QuantMethod == "compressed-tensors" && a.QuantBits == 4:
		return WeightGPTQ, true
	}
	return "", false
}

// WeightFormats lists the valid weight formats, the default first.
var WeightFormats = []WeightFormat{WeightBF16, WeightFP16, WeightFP8, WeightInt8, WeightAWQ, WeightGPTQ, WeightBNB, WeightMXFP4}

// KVCacheDType is vLLM's --kv-cache-dtype: "auto" keeps the cache in the
// model's 16-bit dtype, "fp8" (E4M3) and "fp8_e5m2" store one byte per
// element. vLLM's CacheDType (vllm/config/cache.py at
// 002f10e0cfa1373a19a0d2756598a34b700d20e5) accepts both: "CUDA 11.8+
// supports fp8 (=fp8_e4m3) and fp8_e5m2. ROCm (AMD GPU) supports fp8
// (=fp8_e4m3)". fp8_e4m3 is read as fp8, its name there; fp8_e5m2 is
// kept as given (a new user's export wrote it as fp8, which vLLM reads as
// E4M3) and planned on NVIDIA GPUs only (KVOn).
type KVCacheDType string

// KV-cache dtypes.
const (
	KVAuto    KVCacheDType = "auto"
	KVFP8     KVCacheDType = "fp8"
	KVFP8E5M2 KVCacheDType = "fp8_e5m2"
)

// KVCacheDTypes lists the valid KV-cache dtypes, the default first.
var KVCacheDTypes = []KVCacheDType{KVAuto, KVFP8, KVFP8E5M2}

// FP8 reports whether kv stores one byte per element (fp8 or fp8_e5m2).
func (kv KVCacheDType) FP8() bool { return kv == KVFP8 || kv == KVFP8E5M2 }

// KVOn says why vLLM does not run KV-cache dtype kv on g, or zero: the
// fp8_e5m2 cache is CUDA's ("ROCm (AMD GPU) supports fp8 (=fp8_e4m3)",
// vllm/config/cache.py CacheConfig.cache_dtype at
// 002f10e0cfa1373a19a0d2756598a34b700d20e5).
func KVOn(kv KVCacheDType, g *model.GPU) model.Message {
	if kv == KVFP8E5M2 && g != nil && g.Vendor == "amd" {
		return model.Msg("--kv-cache-dtype fp8_e5m2 is CUDA-only in vLLM: ROCm supports fp8 (E4M3); give --kv-cache-dtype fp8")
	}
	return model.Message{}
}

// ParseWeightFormat parses a weight format; "int4" means AWQ. "fp32"
// (WeightFP32) is read too, as a plan writes it, though not offered.
func ParseWeightFormat(s string) (WeightFormat, error) {
	return model.ParseEnum(s, model.Msg("weight format"), WeightFormats, map[string]WeightFormat{
		"int4": WeightAWQ, "awq-int4": WeightAWQ, "gptq-int4": WeightGPTQ, "bfloat16": WeightBF16,
		"float16": WeightFP16, "half": WeightFP16, "w8a16": WeightInt8, "bnb": WeightBNB, "bnb-4bit": WeightBNB, "nf4": WeightBNB,
		"fp32": WeightFP32, "float32": WeightFP32,
	})
}

// ParseKVCacheDType parses a KV-cache dtype.
func ParseKVCacheDType(s string) (KVCacheDType, error) {
	return model.ParseEnum(s, model.Msg("kv cache dtype"), KVCacheDTypes, map[string]KVCacheDType{"fp8_e4m3": KVFP8})
}

// Serving is a serving workload as an inference engine (vLLM) plans it:
// the model's format, the context it must hold, the traffic it must carry
// and how it is split over GPUs. Zero values mean "the default" (see
// Defaults) or, for TP, PP and Replicas, "pick for me" (auto).
type Serving struct {
	// Tuning overrides DefaultTuning, the constants fitted to the serving
	// calibration; nil for every estimate a user sees.
	Tuning *Tuning

	WeightFormat WeightFormat
	KVCacheDType KVCacheDType
	MaxModelLen  int // --max-model-len: prompt + output tokens one request may hold
	PromptTokens int // average prompt (input) tokens per request
	OutputTokens int // average generated (output) tokens per request
	// RopeScaling is a YaRN scaling vLLM is told to apply (--rope-scaling,
	// [serve] rope_scaling): the model's positions become
	// RopeScaling.Positions; zero keeps them.
	RopeScaling RopeScaling

	// Load: concurrent requests in flight (a closed loop, as benchmark
	// clients with --max-concurrency send), or requests per second (an open
	// loop). Give one; both zero means one request at a time.
	Concurrency    int
	RequestsPerSec float64

	// Latency targets, 0 for none: time to first token and time per output
	// token, in milliseconds. A request that names no TPOT target gets
	// DefaultTPOTTargetMs (config.WorkloadAnswers.Serving: DefaultTPOT
	// says so) unless NoTPOTTarget.
	TTFTTargetMs float64
	TPOTTargetMs float64
	// DefaultTPOT: TPOTTargetMs is DefaultTPOTTargetMs, not asked for.
	DefaultTPOT bool
	// NoTPOTTarget: the request asks for no TPOT target (tpot_ms = 0,
	// --tpot-ms none), so the default does not apply.
	NoTPOTTarget bool

	// PerToken asks the price of a token rather than of carrying a load:
	// the request names no concurrency or requests per second, so plans
	// rank by $ per million output tokens at the default concurrency.
	// Otherwise the load is the question's and plans rank by the cost of
	// carrying it within the latency targets, $ per hour (the order of the
	// total over any duration, too).
	PerToken bool

	TP       int // tensor-parallel degree inside a node; 0: auto
	PP       int // pipeline-parallel stages across nodes; 0: auto (1 unless the model needs more)
	Replicas int // independent copies behind a load balancer; 0: auto

	// Nodes holds auto replicas to that many nodes of the offer, 0 for
	// auto: the user gave the GPUs (gpuplan estimate --gpus N), which bind
	// as an explicit count does in kubectl or gh, so no node is added for
	// the load; a plan that then misses the load or the latency targets
	// says so (Plan.Reasons) and the estimate names the replicas that
	// would meet them (PlanOnNodes). Replicas given still rent what they
	// need (gpuplan estimate warns when that is more than given).
	Nodes int

	// SharedPrefixTokens is how many tokens at the start of every
	// prompt are the same for all requests (a system prompt, a few-shot
	// preamble; all of it when every request sends one prompt). vLLM's
	// automatic prefix caching, on by default in V1, keeps their KV
	// blocks once and computes them once (CachedPromptTokens); 0 means
	// prompts share nothing.
	SharedPrefixTokens int

	// LoRA, when set, serves a LoRA adapter on the base model (vllm serve
	// --enable-lora): its weight slots take GPU memory from the KV cache
	// (LoRABytes, counted in Memory.Weights). A plan's serving phase gets
	// it from the LoRA phase before it (plan.LinkTrained); nil serves the
	// base alone.
	LoRA *LoRA

	GPUMemoryUtilization float64 // --gpu-memory-utilization, 0–1; 0 means 0.9
	MaxNumBatchedTokens  int     // --max-num-batched-tokens; 0 means vLLM's default for the GPU
	MaxNumSeqs           int     // --max-num-seqs; 0 means vLLM's default for the GPU

	// AsReleased says WeightFormat is the format of the model's released
	// checkpoint (ReleasedFormat), chosen because the request named neither
	// a weight format nor a precision; reports say "(as released)".
	AsReleased bool

	// AllowPrecisionFallback plans a GPU that cannot run WeightFormat at
	// the format vLLM would load there instead (FormatOn), as
	// Query.AllowPrecisionFallback does for training; otherwise such a
	// GPU is a near miss naming why. It is the search's answer
	// (search.allow_precision_fallback), not written in [serve].
	AllowPrecisionFallback bool
	// DTypeAuto: WeightFormat bf16 was derived from the precision, which
	// gpuplan reads as vLLM's default --dtype auto: that loads a bf16
	// checkpoint in fp16 where the GPU has no bf16
	// (vllm/config/model.py _resolve_auto_dtype), whatever the search's
	// AllowPrecisionFallback says; a fallback then names --dtype auto.
	DTypeAuto bool
	// float32 is set by PlanServing where vLLM runs the model in float32
	// with a quantized format (FormatFor: bitsandbytes, whose kernels take
	// float32 activations, for a model type that refuses float16 on a GPU
	// without bf16); see Float32.
	float32 bool
	// BudgetMonthUSD is the search's monthly budget (search.budget_month,
	// --budget-month), as Query.BudgetMonthUSD is for training: a plan
	// that meets the load but costs more a month (model.MonthlyUSD:
	// USDPerHour × HoursPerMonth, at least 730 h on a reserved term) is
	// a near miss saying so. 0 means no budget.
	BudgetMonthUSD float64
	// HoursPerMonth are the hours of that month used, billed on demand
	// and spot; 0 means model.HoursPerMonth (730, always on).
	HoursPerMonth float64
	// AllowMultiNode lets one replica span instances (pipeline parallel
	// across nodes), which vLLM runs on a Ray cluster ("Distributed
	// inference and serving": multi-node needs Ray) that gpuplan's exports
	// do not write; otherwise such a plan is a near miss. The search's
	// answer (search.allow_multi_node), not written in [serve].
	AllowMultiNode bool
}

// Float32 reports whether the model runs in float32 (vLLM's --dtype
// float32): its unquantized weights, its activations and an "auto" KV
// cache take 4 bytes an element, and its matmuls run at the GPU's fp32
// rate. True for WeightFP32, and for a quantized format PlanServing runs
// so (FormatFor).
func (s *Serving) Float32() bool { return s.WeightFormat == WeightFP32 || s.float32 }

// denseBytes returns the bytes of one element of the model's dtype: 4 in
// float32 (Float32), else 2 (bf16 or fp16, whatever the weight format of
// the quantized linears).
func (s *Serving) denseBytes() float64 {
	if s.Float32() {
		return 4
	}
	return 2
}

// CachedPromptTokens returns the prompt tokens of each request that vLLM's
// automatic prefix caching serves from the KV cache instead of computing:
// the shared prefix (SharedPrefixTokens) in whole KV blocks, as only full
// blocks are hashed and looked up (vllm/v1/core/kv_cache_utils.py,
// hash_request_tokens), and never the last prompt token, which is always
// computed for its logits (vllm/v1/core/kv_cache_manager.py,
// get_computed_blocks: "max_cache_hit_length = request.num_tokens - 1").
func (s *Serving) CachedPromptTokens() int {
	c := min(s.SharedPrefixTokens, s.PromptTokens-1)
	return max(c/vllmBlockSize*vllmBlockSize, 0)
}

// Latency a reader perceives. Databricks' benchmarking guide ("Conduct
// your own LLM endpoint benchmarking", the TPOT paragraph): "a TPOT of 100
// milliseconds per token would be 10 tokens per second per user, or ~450
// words per minute, which is faster than a typical person can read" (so
// 0.75 words per token). Brysbaert (2019), "How many words do we read per
// minute? A review and meta-analysis of reading rate", J. Memory and
// Language 109: adults read English non-fiction silently at 238 words per
// minute (most between 175 and 300).
const (
	// DefaultTPOTTargetMs is the TPOT target of a request that names
	// none: 100 ms per token streams text faster than people read, so a
	// chat reads as interactive.
	DefaultTPOTTargetMs = 100.0
	// ReadingTPOTMs is the TPOT at which text streams as fast as the
	// average adult reads: 60,000 ms ÷ (238 words/min ÷ 0.75 words per
	// token) ≈ 189 ms. A plan slower than this (SlowerThanReading) makes
	// its reader wait for each word.
	ReadingTPOTMs = 60_000 / (readingWordsPerMin / wordsPerToken)

	readingWordsPerMin = 238.0
	wordsPerToken      = 0.75
)

// ErrInvalid is wrapped by every Serving.Validate error.
var ErrInvalid = errors.New("invalid serving workload")

// vLLM defaults, vllm/config/cache.py CacheConfig and
// vllm/engine/arg_utils.py EngineArgs.get_batch_defaults (v0.11): the
// engine may use 90% of the GPU's memory; the OpenAI-compatible server
// schedules at most 8192 tokens and 1024 sequences per step on GPUs with
// ≥ 70 GiB that are not A100s ("For GPUs like H100 and MI300x, use larger
// default values"), else 2048 tokens and 256 sequences.
const (
	DefaultGPUMemoryUtilization = 0.9
	vllmLargeGPUBytes           = 70 * model.GiB
	vllmBlockSize               = 16 // tokens per KV-cache block, CacheConfig.block_size default on CUDA
)

// vllmBatchDefaults returns vLLM's default max_num_batched_tokens and
// max_num_seqs for the OpenAI server on g (EngineArgs.get_batch_defaults).
func vllmBatchDefaults(g *model.GPU) (tokens, seqs int) {
	if g.MemoryBytes() >= vllmLargeGPUBytes && !isA100(g) {
		return 8192, 1024
	}
	return 2048, 256
}

func isA100(g *model.GPU) bool {
	return len(g.Key) >= 4 && g.Key[:4] == "a100"
}

// Defaults returns s with its zero values filled as vLLM would on g:
// auto weights (bf16), auto KV cache, 0.9 memory utilisation, the batch
// defaults of vllmBatchDefaults, and MaxModelLen covering one request.
// TP, PP and Replicas stay 0 (auto) for the planner.
func (s Serving) Defaults(g *model.GPU) Serving {
	if s.WeightFormat == "" {
		s.WeightFormat = WeightBF16
	}
	if s.KVCacheDType == "" {
		s.KVCacheDType = KVAuto
	}
	if s.GPUMemoryUtilization == 0 {
		s.GPUMemoryUtilization = DefaultGPUMemoryUtilization
	}
	tok, seqs := vllmBatchDefaults(g)
	if s.MaxNumBatchedTokens == 0 {
		s.MaxNumBatchedTokens = tok
	}
	if s.MaxNumSeqs == 0 {
		// vLLM caps its default at the tokens a step may hold, one
		// token per sequence: max_num_seqs = min(default,
		// max_num_batched_tokens) (vllm/engine/arg_utils.py
		// EngineArgs._set_default_args); a --max-num-batched-tokens 512
		// on an H100 runs 512 sequences, not 1024, which vLLM would
		// refuse (SchedulerConfig.verify_max_model_len).
		s.MaxNumSeqs = min(seqs, s.MaxNumBatchedTokens)
	}
	if s.MaxModelLen == 0 {
		s.MaxModelLen = s.PromptTokens + s.OutputTokens
	}
	return s
}

// Validate reports the first problem with s for model a, saying what is
// valid. Errors wrap ErrInvalid.
func (s *Serving) Validate(a *model.Architecture) error {
	bad := func(format string, args ...any) error {
		return model.Errorf(ErrInvalid, format, args...)
	}
	if !a.HasShape() || !a.Family.Generative() {
		return bad("serving needs a generative transformer with a known shape (layers, hidden size, heads)")
	}
	if why := Unserved(a); !why.IsZero() {
		return bad("%s", why)
	}
	if encDec(a) && s.PP > 1 {
		return bad("pp %d: vLLM runs an encoder-decoder without pipeline parallelism (Whisper's model implements no SupportsPP: vllm/model_executor/models/whisper.py); give pp 1", s.PP)
	}
	if encDec(a) && s.SharedPrefixTokens > 0 {
		return bad("shared_prefix_tokens: vLLM disables prefix caching for encoder-decoders (vllm/config/vllm.py: \"Encoder-decoder models do not support chunked prefill nor prefix caching\"); leave it out")
	}
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"max_model_len", float64(s.MaxModelLen)}, {"prompt_tokens", float64(s.PromptTokens)},
		{"output_tokens", float64(s.OutputTokens)}, {"concurrency", float64(s.Concurrency)},
		{"requests_per_sec", s.RequestsPerSec}, {"ttft_target_ms", s.TTFTTargetMs},
		{"tpot_target_ms", s.TPOTTargetMs}, {"tp", float64(s.TP)}, {"pp", float64(s.PP)},
		{"replicas", float64(s.Replicas)}, {"max_num_batched_tokens", float64(s.MaxNumBatchedTokens)},
		{"max_num_seqs", float64(s.MaxNumSeqs)}, {"shared_prefix_tokens", float64(s.SharedPrefixTokens)},
	} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return bad("%s must be ≥ 0, got %v", f.name, f.v)
		}
	}
	if s.OutputTokens < 1 {
		return bad("output_tokens must be ≥ 1, got %d", s.OutputTokens)
	}
	if s.PromptTokens < 1 {
		return bad("prompt_tokens must be ≥ 1, got %d", s.PromptTokens)
	}
	if s.SharedPrefixTokens > s.PromptTokens {
		return bad("shared_prefix_tokens (%d) exceed prompt_tokens %d", s.SharedPrefixTokens, s.PromptTokens)
	}
	if s.MaxModelLen > 0 && s.PromptTokens+s.OutputTokens > s.MaxModelLen {
		return bad("prompt_tokens + output_tokens (%d) exceed max_model_len %d", s.PromptTokens+s.OutputTokens, s.MaxModelLen)
	}
	if !s.RopeScaling.IsZero() {
		if why := RopeOn(a); !why.IsZero() {
			return bad("rope_scaling %s: %s", s.RopeScaling, why)
		}
	}
	if err := s.checkPositions(a); err != nil {
		return err
	}
	if s.Concurrency > 0 && s.RequestsPerSec > 0 {
		return bad("give concurrency or requests_per_sec, not both")
	}
	if s.MaxNumSeqs > 0 && s.MaxNumBatchedTokens > 0 && s.MaxNumBatchedTokens < s.MaxNumSeqs {
		// A step schedules at least one token per running sequence:
		// vLLM refuses to start otherwise (vllm/config/scheduler.py
		// SchedulerConfig.verify_max_model_len: "max_num_batched_tokens
		// … must be greater than or equal to max_num_seqs").
		return bad("max_num_batched_tokens (%d) must be ≥ max_num_seqs (%d): vLLM refuses to start with fewer tokens per step than sequences; raise max_num_batched_tokens or lower max_num_seqs",
			s.MaxNumBatchedTokens, s.MaxNumSeqs)
	}
	if u := s.GPUMemoryUtilization; u != 0 && (u <= 0 || u > 1 || math.IsNaN(u)) {
		return bad("gpu_memory_utilization must be in (0, 1], got %v", u)
	}
	if s.TP > 0 {
		if err := tpOK(a, s.TP); err != nil {
			return bad("%v", err)
		}
	}
	if s.PP > 0 && s.PP > a.Layers {
		return bad("pp %d is more than the model's %d layers", s.PP, a.Layers)
	}
	if s.WeightFormat != "" {
		if _, err := ParseWeightFormat(string(s.WeightFormat)); err != nil {
			return bad("%v", err)
		}
	}
	if s.WeightFormat == WeightFP16 && FP16Refused(a) {
		// Whatever the GPU: vLLM's _check_valid_dtype raises "The model
		// type … does not support float16" for --dtype float16.
		return bad("weight format fp16: vLLM refuses float16 for %s models (numerical instability); give bf16, which vLLM serves in float32 on a GPU without bf16", a.CheckpointModelType())
	}
	if s.KVCacheDType != "" {
		if _, err := ParseKVCacheDType(string(s.KVCacheDType)); err != nil {
			return bad("%v", err)
		}
	}
	return nil
}

// checkPositions refuses a max_model_len above the positions vLLM derives
// for a (RopeScaling.Positions: a's own, or with the YaRN scaling asked),
// as vLLM refuses it ("User-specified max_model_len … is greater than the
// derived max_model_len", _get_and_verify_max_len), and says how to go
// further when a's RoPE can be scaled (RopeFactorFor): the smallest whole
// YaRN factor that holds max_model_len, as Qwen's cards pick factor 2 for
// 65,536 tokens and 4 for 131,072. A new user's walk: Qwen3 8B at
// --max-model-len 64K was refused "above the model's 40960 positions" with
// no way past it.
func (s *Serving) checkPositions(a *model.Architecture) error {
	pos := s.RopeScaling.Positions(a)
	if pos <= 0 || s.MaxModelLen <= pos {
		return nil
	}
	f, orig := RopeFactorFor(a, s.MaxModelLen)
	e := &PositionsError{MaxModelLen: s.MaxModelLen, Positions: pos, Rope: s.RopeScaling, Factor: f, Original: orig}
	switch {
	case !s.RopeScaling.IsZero() && f > 0:
		e.RopeOriginal = s.RopeScaling.original(a)
		e.Err = errorf("max_model_len %d is above the %d positions of rope_scaling %s (%d × %g); give --rope-scaling yarn:%d (%d × %d = %d positions)",
			s.MaxModelLen, pos, s.RopeScaling, e.RopeOriginal, s.RopeScaling.Factor, f, orig, f, orig*f)
	case !s.RopeScaling.IsZero():
		e.Err = errorf("max_model_len %d is above the %d positions of rope_scaling %s, and no YaRN factor up to %d reaches it", s.MaxModelLen, pos, s.RopeScaling, MaxRopeFactor)
	case f > 0:
		e.Err = errorf("max_model_len %d is above the model's %d positions; vLLM serves a RoPE model past them with YaRN: give --rope-scaling yarn:%d (%d × %d = %d positions), which the launch files pass as --hf-overrides",
			s.MaxModelLen, pos, f, orig, f, orig*f)
	default:
		e.Err = errorf("max_model_len %d is above the model's %d positions", s.MaxModelLen, pos)
	}
	return e
}

// errorf is model.Errorf of ErrInvalid, as its *model.KindError.
func errorf(key string, args ...any) *model.KindError {
	return &model.KindError{Kind: ErrInvalid, Msg: model.Msg(key, args...)}
}

// PositionsError is Validate's refusal of a max_model_len above the
// positions vLLM derives for the model (RopeScaling.Positions), with the
// figures it is made of, so a caller that asks for the scaling in its own
// words (the configurator's YaRN field, not --rope-scaling) can say it
// so. Its text and message are the command line's (Err, of ErrInvalid).
type PositionsError struct {
	MaxModelLen int         // the length asked
	Positions   int         // the model's, with Rope applied
	Rope        RopeScaling // the scaling asked; zero for none
	// RopeOriginal is the positions Rope multiplies, when Rope is given
	// and Factor holds the length.
	RopeOriginal int
	// Factor is the smallest whole YaRN factor that holds MaxModelLen and
	// Original the positions it multiplies (RopeFactorFor); 0 when none
	// up to MaxRopeFactor does or the model takes none (RopeOn).
	Factor, Original int
	Err              *model.KindError
}

func (e *PositionsError) Error() string { return e.Err.Error() }

// Unwrap makes errors.Is(err, ErrInvalid) hold and lets errors.As find
// the *model.KindError, as before the figures were kept.
func (e *PositionsError) Unwrap() error { return e.Err }

// Message is the refusal as one message (model.KindError.Message).
func (e *PositionsError) Message() model.Message { return e.Err.Message() }

// Unserved says why vLLM serves no a, or zero when it serves it: every
// decoder-only transformer, and of encoder-decoders only Whisper (model
// type "whisper"). vLLM's supported models list Whisper
// (WhisperForConditionalGeneration) among the encoder-decoders, BART and
// Florence-2 only through the vllm-project/bart-plugin, and no T5
// (docs/models/supported_models.md); its V1 scheduler allocates the
// cross-attention cache for "Whisper … the only supported encoder-decoder
// model" (vllm/v1/core/sched/scheduler.py). Hugging Face Text Generation
// Inference lists FLAN-T5 among the models it serves
// (text-generation-inference docs/source/supported_models.md).
//
// A classification head (model.Architecture.Head) generates no tokens:
// vLLM runs "*For*Classification" architectures as pooling models
// ("--runner pooling", the classify task; docs/models/pooling_models.md),
// with no decode phase, so a serving plan of KV capacity, TPOT and output
// tokens does not describe it.
func Unserved(a *model.Architecture) model.Message {
	if a.Head != "" {
		return model.Msg("a %s model generates no tokens: vLLM serves it as a pooling model (--runner pooling, the classify task), which gpuplan's serving plan (KV cache, TPOT, output tokens) does not cost", model.Msg(string(a.Head)))
	}
	if !encDec(a) || a.ModelType == "whisper" {
		return model.Message{}
	}
	if a.ModelType == "t5" || a.ModelType == "mt5" {
		return model.Msg("vLLM serves no T5: of encoder-decoders its supported models list Whisper (BART and Florence-2 through the vllm-project/bart-plugin); Hugging Face Text Generation Inference lists FLAN-T5")
	}
	return model.Msg("vLLM serves no encoder-decoder but Whisper (BART and Florence-2 through the vllm-project/bart-plugin)")
}

// WhisperPromptTokens is the decoder prompt of a Whisper transcription
// request as vLLM's OpenAI server builds it: <|startoftranscript|>, the
// language, the task and <|notimestamps|>
// (vllm/model_executor/models/whisper.py, get_generation_prompt); the
// audio goes to the encoder.
const WhisperPromptTokens = 4

// AudioSecondsPerPosition is the audio one Whisper encoder position
// covers: the feature extractor's 10 ms hop (hop_length 160 at 16 kHz,
// transformers models/whisper/feature_extraction_whisper.py) halved by
// the stride-2 convolution, 20 ms, so 1500 positions are its 30 s window
// (chunk_length 30).
const AudioSecondsPerPosition = 0.02

// AudioInput reports whether a takes audio in a fixed window: an
// encoder-decoder with a fixed encoder length (Whisper: EncoderSeqLen
// 1500 positions, 30 s). Such a request's prompt is its decoder's task
// tokens (WhisperPromptTokens), and every request holds the whole window
// in its cross-attention cache, however short its audio
// (CrossAttentionTokens).
func AudioInput(a *model.Architecture) bool { return encDec(a) && a.EncoderSeqLen > 0 }

// tpOK applies vLLM's tensor-parallel rules (vllm/config/model.py
// ModelConfig.verify_with_parallel_config: "Total number of attention heads
// must be divisible by tensor parallel size"; the KV heads are split when
// there are at least TP of them, else replicated, so one must divide the
// other, vllm/model_executor/layers/linear.py QKVParallelLinear). vLLM
// has no power-of-two rule: Phi-4's 40 heads and 10 KV heads take TP 5
// (a new user's walk was refused "tp must be a power of two, got 5").
// The error lists the sizes that pass (validTPs).
func tpOK(a *model.Architecture, tp int) error { return TPOn(a, tp, 0) }

// TPOn is the tensor-parallel rule of Validate for a TP that runs inside
// a node of at most most GPUs (0: no bound): the sizes the error lists
// stop at most, so a size it offers is not refused next for being more
// than the node's GPUs (a new user's walk: --tp 3 on H100 listed 16 and
// 32, then --tp 16 was refused as more than the catalog's 8-GPU node).
// The error is a model.Message, as tpOK's.
func TPOn(a *model.Architecture, tp, most int) error {
	if tp < 1 {
		return model.Msg("tp must be at least 1, got %d", tp)
	}
	if a.Heads%tp != 0 {
		return model.Msg("the model's %d attention heads are not divisible by tp %d (vLLM's rule); valid tp: %s", a.Heads, tp, validTPs(a, most))
	}
	kv := a.EffectiveKVHeads()
	if kv%tp != 0 && tp%kv != 0 {
		return model.Msg("the model's %d KV heads and tp %d do not divide each other (vLLM splits or replicates them); valid tp: %s", kv, tp, validTPs(a, most))
	}
	return nil
}

// validTPs lists the tensor-parallel sizes tpOK accepts for a, from 1 to
// its attention heads or most when most is smaller and above 0, as
// "1, 2, 4, 7, 14, 28".
func validTPs(a *model.Architecture, most int) string {
	var ok []string
	kv := a.EffectiveKVHeads()
	top := a.Heads
	if most > 0 {
		top = min(top, most)
	}
	for tp := 1; tp <= top; tp++ {
		if a.Heads%tp == 0 && (kv%tp == 0 || tp%kv == 0) {
			ok = append(ok, strconv.Itoa(tp))
		}
	}
	return strings.Join(ok, ", ")
}
