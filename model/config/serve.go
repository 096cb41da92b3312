package config

import (
	"cmp"
	"errors"

	"github.com/gpuplan/gpuplan/model"
	"github.com/gpuplan/gpuplan/model/serve"
)

// rawServe is the [serve] table: the serving request (weight format, the
// lengths, the load, the latency targets, the split and vLLM's engine
// settings, spelled as vLLM's flags in snake case) and, as gpuplan export
// writes it (model/launch Serve.TOML), where it runs. The "where" keys are
// informational like [launch]: recomputed on export, but typed so a typo is
// caught. tensor_parallel_size, pipeline_parallel_size and replicas are
// requests: 0 or absent is auto. A request key also takes a string, read
// as its flag reads it (flagtext.go): replicas = "auto", tpot_ms = "none".
type rawServe struct {
	WeightFormat         tString      `toml:"weight_format"`
	KVCacheDType         tString      `toml:"kv_cache_dtype"`
	MaxModelLen          tTokenText   `toml:"max_model_len"`
	RopeScaling          tString      `toml:"rope_scaling"`
	PromptTokens         tTokenText   `toml:"prompt_tokens"`
	OutputTokens         tTokenText   `toml:"output_tokens"`
	SharedPrefixTokens   tTokenText   `toml:"shared_prefix_tokens"`
	Concurrency          tWholeText   `toml:"concurrency"`
	RequestsPerSec       tDecimalText `toml:"requests_per_sec"`
	TTFTMs               tDecimalText `toml:"ttft_ms"`
	TPOTMs               tMsOrNone    `toml:"tpot_ms"`
	TensorParallelSize   tWholeText   `toml:"tensor_parallel_size"`
	PipelineParallelSize tWholeText   `toml:"pipeline_parallel_size"`
	Replicas             tAutoWhole   `toml:"replicas"`
	GPUMemoryUtilization tDecimalText `toml:"gpu_memory_utilization"`
	MaxNumBatchedTokens  tTokenText   `toml:"max_num_batched_tokens"`
	MaxNumSeqs           tWholeText   `toml:"max_num_seqs"`
	Provider             tString      `toml:"provider"`
	InstanceType         tString      `toml:"instance_type"`
	Region               tString      `toml:"region"`
	Pricing              tString      `toml:"pricing"`
	USDPerHour           tFloat       `toml:"usd_per_hour"`
	Accelerator          tString      `toml:"accelerator"`
	GPUsPerNode          tInt         `toml:"gpus_per_node"`
	Nodes                tInt         `toml:"nodes"`
	ReplicasPerNode      tInt         `toml:"replicas_per_node"`
	ModelID              tString      `toml:"model_id"`
	Image                tString      `toml:"image"`
	Port                 tInt         `toml:"port"`
	VLLMArgs             tStrings     `toml:"vllm_args"`
}

// serving checks the table's request keys and returns them. Errors are
// *Error naming the key.
func (r *rawServe) serving() (serve.Serving, error) {
	s := serve.Serving{MaxModelLen: r.MaxModelLen.v, PromptTokens: r.PromptTokens.v, OutputTokens: r.OutputTokens.v, SharedPrefixTokens: r.SharedPrefixTokens.v,
		Concurrency: r.Concurrency.v, RequestsPerSec: r.RequestsPerSec.v, TTFTTargetMs: r.TTFTMs.v, TPOTTargetMs: r.TPOTMs.v,
		TP: r.TensorParallelSize.v, PP: r.PipelineParallelSize.v, Replicas: r.Replicas.v,
		GPUMemoryUtilization: r.GPUMemoryUtilization.v, MaxNumBatchedTokens: r.MaxNumBatchedTokens.v, MaxNumSeqs: r.MaxNumSeqs.v}
	// tpot_ms = 0 written out asks for no TPOT target; left out, the
	// default (serve.DefaultTPOTTargetMs) applies.
	s.NoTPOTTarget = r.TPOTMs.set && r.TPOTMs.v == 0
	if err := r.zeroText(); err != nil {
		return s, err
	}
	var err error
	if r.WeightFormat.v != "" {
		if s.WeightFormat, err = serve.ParseWeightFormat(r.WeightFormat.v); err != nil {
			return s, Errorf("serve.weight_format", "%v", err)
		}
	}
	if r.KVCacheDType.v != "" {
		if s.KVCacheDType, err = serve.ParseKVCacheDType(r.KVCacheDType.v); err != nil {
			return s, Errorf("serve.kv_cache_dtype", "%v", err)
		}
	}
	if s.RopeScaling, err = serve.ParseRopeScaling(r.RopeScaling.v); err != nil {
		return s, Errorf("serve.rope_scaling", "%v", err)
	}
	if err := checkServeRanges(&s); err != nil {
		var ce *Error
		if errors.As(err, &ce) {
			ce.Key = "serve." + ce.Key
		}
		return s, err
	}
	if err := r.checkDeployment(); err != nil {
		return s, err
	}
	return s, nil
}

// zeroText refuses a key's string that reads as 0 where its flag refuses
// 0, in the flag's words after the text ("0": must be 0.1–3600000 ms, got
// 0), as the flag's parser refuses other text. A string is the flag's
// text (docs/schemas.md); a bare TOML 0 keeps its meaning, none given (or
// for tpot_ms, no TPOT target), which a string "0" slipped through to
// (walk52: "serve.tpot_ms" = "0" dropped the target where --tpot-ms 0 is
// refused). The token lengths are refused as 0 in either form already
// (zeroRanges), and shared_prefix_tokens takes 0 as its flag does.
func (r *rawServe) zeroText() error {
	latency := func(v float64) model.Message {
		return model.Msg("must be %g–%.0f ms, got %v", MinServeLatency, maxServeLatency, v)
	}
	for _, f := range []struct {
		key  string
		text string
		zero bool
		why  model.Message
	}{
		{"concurrency", r.Concurrency.text, r.Concurrency.v == 0, model.Msg("must be 1–%d, got %d", model.MaxBatch, 0)},
		{"requests_per_sec", r.RequestsPerSec.text, r.RequestsPerSec.v == 0, model.Msg("must be > 0, got %v", 0)},
		{"ttft_ms", r.TTFTMs.text, r.TTFTMs.v == 0, latency(0)},
		{"tpot_ms", r.TPOTMs.text, r.TPOTMs.v == 0 && !r.TPOTMs.none, latency(0)},
		{"tensor_parallel_size", r.TensorParallelSize.text, r.TensorParallelSize.v == 0, model.Msg("must be ≥ 1, got %d", 0)},
		{"pipeline_parallel_size", r.PipelineParallelSize.text, r.PipelineParallelSize.v == 0, model.Msg("must be ≥ 1, got %d", 0)},
		{"gpu_memory_utilization", r.GPUMemoryUtilization.text, r.GPUMemoryUtilization.v == 0, model.Msg("must be %g–1, got %v (0.9 is vLLM's default)", MinGPUMemoryUtilization, 0)},
		{"max_num_seqs", r.MaxNumSeqs.text, r.MaxNumSeqs.v == 0, model.Msg("must be 1–%d, got %d", model.MaxBatch, 0)},
	} {
		if f.text != "" && f.zero {
			return Errorf("serve."+f.key, "%q: %s", f.text, f.why)
		}
	}
	return nil
}

// checkDeployment bounds the deployment keys a serving export writes
// (ServeLaunch) and Decode reads back for information: usd_per_hour as
// search.max_price_hour (0, left out, to 1e7 USD an hour), the GPU, node
// and replica counts as the other counts (to model.MaxGPUs), and port a
// TCP port (1–65535, RFC 9293 §3.1: 16 bits; 0 left out). Issue 29: -1
// and 1e300 were read back.
func (r *rawServe) checkDeployment() error {
	if err := CheckFloat("serve.usd_per_hour", r.USDPerHour.v, 1e7); err != nil {
		return err
	}
	for _, f := range []struct {
		key    string
		v, max int
	}{{"gpus_per_node", r.GPUsPerNode.v, model.MaxGPUs}, {"nodes", r.Nodes.v, model.MaxGPUs}, {"replicas_per_node", r.ReplicasPerNode.v, model.MaxGPUs}, {"port", r.Port.v, 65535}} {
		if f.v < 0 || f.v > f.max {
			return Errorf("serve."+f.key, "must be 1–%d, got %d; leave it out for the default", f.max, f.v)
		}
	}
	for _, f := range []struct{ key, v string }{{"provider", r.Provider.v}, {"instance_type", r.InstanceType.v}, {"region", r.Region.v}, {"accelerator", r.Accelerator.v}} {
		if err := CheckName("serve."+f.key, f.v, false); err != nil {
			return err
		}
	}
	return nil
}

// Serving request limits: what one request may say before a model is
// known (Serving.Validate checks the rest against the model).
//
// minServeRate is one request an hour, a policy bound: a server sized
// for fewer requests than that sits idle between them, which concurrency
// 1 sizes, and 1e-300 requests per second printed figures of 300 digits
// (attack r29).
//
// MinServeLatency (ms) bounds ttft_ms and tpot_ms (and --ttft-ms,
// --tpot-ms) below: a tenth of a millisecond, a policy bound under any
// time to first token or per output token a server reaches (a decode
// step of the fastest GPUs is milliseconds); 1e-300 printed "target 0
// ms" (attack r29b).
//
// MinGPUMemoryUtilization bounds gpu_memory_utilization (and
// --gpu-memory-utilization) below. vLLM takes (0, 1] (vllm/config/cache.py,
// CacheConfig: gpu_memory_utilization: float = Field(default=0.9, gt=0,
// le=1)); 0.01 is a policy floor
// within it: a hundredth of the largest catalog GPU (B200, 180 GB) is
// under 2 GB, no model's weights with its KV cache, and 1e-300 is a slip.
const (
	maxServeRate            = 1e6 // requests per second
	minServeRate            = 1.0 / 3600
	maxServeLatency         = 3.6e6
	MinServeLatency         = 0.1
	MinGPUMemoryUtilization = 0.01
)

// checkServeRanges checks the numbers of s alone, without a model: counts in
// 0…their limits (0 is the default or auto), gpu_memory_utilization in
// (0, 1], load as concurrency or requests per second, not both. Errors are
// *Error with the [serve] key (without "serve.").
func checkServeRanges(s *serve.Serving) error {
	for _, f := range []struct {
		key    string
		v, max int
	}{
		{"max_model_len", s.MaxModelLen, model.MaxSeqLen}, {"prompt_tokens", s.PromptTokens, model.MaxSeqLen},
		{"output_tokens", s.OutputTokens, model.MaxSeqLen}, {"shared_prefix_tokens", s.SharedPrefixTokens, model.MaxSeqLen},
		{"concurrency", s.Concurrency, model.MaxBatch},
		{"tensor_parallel_size", s.TP, model.MaxGPUs}, {"pipeline_parallel_size", s.PP, model.MaxGPUs},
		{"replicas", s.Replicas, model.MaxGPUs}, {"max_num_batched_tokens", s.MaxNumBatchedTokens, model.MaxSeqLen},
		{"max_num_seqs", s.MaxNumSeqs, model.MaxBatch},
	} {
		if f.v < 0 || f.v > f.max {
			return &Error{Key: f.key, Msg: model.Msg("must be 1–%d, got %d; leave it out for the default", f.max, f.v)}
		}
	}
	for _, f := range []struct {
		key    string
		v, max float64
	}{
		{"requests_per_sec", s.RequestsPerSec, maxServeRate},
	} {
		if err := CheckFloat(f.key, f.v, f.max); err != nil {
			return err
		}
	}
	// The figures with a floor get one message for every value outside
	// their range, negative, NaN and too small alike (CheckFloatIn).
	for _, f := range []struct {
		key         string
		v, min, max float64
	}{
		{"ttft_ms", s.TTFTTargetMs, MinServeLatency, maxServeLatency}, {"tpot_ms", s.TPOTTargetMs, MinServeLatency, maxServeLatency},
		{"gpu_memory_utilization", s.GPUMemoryUtilization, MinGPUMemoryUtilization, 1},
	} {
		if err := CheckFloatIn(f.key, f.v, f.min, f.max); err != nil {
			return err
		}
	}
	if s.RequestsPerSec > 0 && s.RequestsPerSec < minServeRate {
		return &Error{Key: "requests_per_sec", Msg: model.Msg("must be at least one request an hour (%.3g per second), got %v; for less, give concurrency = 1", minServeRate, s.RequestsPerSec)}
	}
	if s.Concurrency > 0 && s.RequestsPerSec > 0 {
		return &Error{Key: "requests_per_sec", Msg: model.Msg("give concurrency or requests_per_sec, not both")}
	}
	return nil
}

// encodeServe writes the [serve] request table; nothing when s is all
// defaults.
func (e *encoder) encodeServe(s *serve.Serving) {
	if *s == (serve.Serving{}) {
		return
	}
	e.table("serve", "Serving (task inference): vLLM's layout; left-out keys are defaults, 0 parallelism is auto.")
	e.str("weight_format", string(s.WeightFormat), "bf16, fp16, fp8, int8, awq, gptq or bitsandbytes")
	e.str("kv_cache_dtype", string(s.KVCacheDType), "auto, fp8 or fp8_e5m2")
	e.int("max_model_len", s.MaxModelLen, "tokens one request may hold, prompt + output")
	e.str("rope_scaling", s.RopeScaling.String(), "yarn:FACTOR[:ORIGINAL], a YaRN scaling vLLM applies past the model's positions")
	e.int("prompt_tokens", s.PromptTokens, "average prompt tokens per request")
	e.int("output_tokens", s.OutputTokens, "average generated tokens per request")
	e.int("shared_prefix_tokens", s.SharedPrefixTokens, "prompt tokens every request starts with alike (a system prompt)")
	e.int("concurrency", s.Concurrency, "requests in flight")
	e.float("requests_per_sec", s.RequestsPerSec, "arrival rate, instead of concurrency")
	e.float("ttft_ms", s.TTFTTargetMs, "target time to first token")
	e.float("tpot_ms", s.TPOTTargetMs, "target time per output token")
	if s.NoTPOTTarget && s.TPOTTargetMs == 0 {
		e.kv("tpot_ms", "0.0", "no TPOT target (left out: 100 ms, faster than people read)")
	}
	e.int("tensor_parallel_size", s.TP, "GPUs per replica inside a node")
	e.int("pipeline_parallel_size", s.PP, "stages across nodes")
	e.int("replicas", s.Replicas, "copies behind a load balancer")
	e.float("gpu_memory_utilization", s.GPUMemoryUtilization, "vLLM's share of GPU memory")
	e.int("max_num_batched_tokens", s.MaxNumBatchedTokens, "tokens per scheduler step")
	e.int("max_num_seqs", s.MaxNumSeqs, "sequences per scheduler step")
}

// Serving returns the serving workload the request asks for, given w, the
// request resolved by Workload and Defaults: the [serve] answers, with the
// older inference keys filling what they leave out (context_len is
// max_model_len (or seq_len, as the configurator's context length asks
// it), gen_tokens output_tokens, sequences concurrency, tp the
// tensor-parallel degree) and the weight format from the precision (a
// quantized config.json's format) when none is given, or the released
// checkpoint's (serve.ReleasedFormat) when neither it nor a precision is
// given. bf16 so derived without a precision given is
// vLLM's default --dtype auto, which loads a bf16 checkpoint in fp16 where
// the GPU has no bf16 (vllm/config/model.py _resolve_auto_dtype), so it
// allows that fallback; a precision or a weight format given asks for
// itself. Without a
// prompt length, a request fills its context: prompt = max_model_len −
// output. A model that takes audio in a fixed window (serve.AudioInput:
// Whisper) is asked transcriptions: a prompt of its task tokens
// (serve.WhisperPromptTokens) and, without an output length, an output
// that fills max_model_len. Without a load (concurrency, requests_per_sec or sequences) the
// question is a price per token (serve.Serving.PerToken) at the default
// concurrency; without a TPOT target the target is
// serve.DefaultTPOTTargetMs, one that reads as interactive, unless the
// request asked for none.
func (r *WorkloadAnswers) Serving(w *model.Workload) serve.Serving {
	s := r.Serve
	if s.WeightFormat == "" {
		s.WeightFormat = serve.WeightFormatFor(w.Precision)
		if s.WeightFormat == serve.WeightAWQ { // the checkpoint's own int4 format
			switch w.Model.QuantMethod {
			case "gptq":
				s.WeightFormat = serve.WeightGPTQ
			case "bitsandbytes":
				s.WeightFormat = serve.WeightBNB
			case "mxfp4":
				if w.Model.ExpertLinearParams() > 0 {
					s.WeightFormat = serve.WeightMXFP4
				}
			}
		}
		if f, ok := serve.ReleasedFormat(&w.Model); ok && r.Precision == "" {
			// A model released quantized (gpt-oss in MXFP4, DeepSeek-V3/R1
			// in fp8) is served as released unless a precision or weight
			// format is given.
			s.WeightFormat, s.AsReleased = f, true
		}
		// bf16 from no precision given is vLLM's --dtype auto, fp16 where
		// the GPU has no bf16; a precision given (precision = "bf16" in
		// the file, the configurator's Precision answer) is asked, as
		// --precision bf16 typed: such a GPU is a near miss unless the
		// search allows the fallback (ServeSearch), which the file and
		// the configurator's Precision fallback page say.
		s.AllowPrecisionFallback = s.WeightFormat == serve.WeightBF16 && r.Precision == ""
		s.DTypeAuto = s.AllowPrecisionFallback
	}
	outputGiven := s.OutputTokens > 0 || r.GenTokens > 0
	if s.OutputTokens == 0 {
		s.OutputTokens = cmp.Or(r.GenTokens, w.GenTokens)
	}
	audio := serve.AudioInput(&w.Model)
	if audio && s.PromptTokens == 0 {
		// A transcription request: the audio goes to the encoder's fixed
		// window (30 s, 1500 positions, held whole in the cross-attention
		// cache: serve.CrossAttentionTokens), the decoder's prompt is its
		// task tokens.
		s.PromptTokens = serve.WhisperPromptTokens
	}
	// Without max_model_len: context_len, else seq_len, else the
	// model's default sequence length (Workload.Defaults: the catalog's
	// default_seq_len, or 2048 within its positions), at least one average
	// request. Not vLLM's own default, the model's whole context
	// (the smallest of max_position_embeddings and the like in its
	// config.json: vllm/config/model.py _get_and_verify_max_len, and
	// ModelConfig.max_model_len "If unspecified, will be automatically
	// derived from the model config"), on purpose: a plan sized for 131,072
	// tokens a request (Llama 3.1) refuses every GPU whose KV cache holds
	// less than one such request, as vLLM refuses to start there, for a
	// server whose requests are a few thousand tokens; and every launch
	// file gpuplan writes passes --max-model-len (model/launch
	// Serve.VLLMArgs), so the server started runs the length planned. A user
	// who wants the model's whole context gives it.
	if s.MaxModelLen == 0 {
		switch {
		case r.ContextLen > 0:
			s.MaxModelLen = r.ContextLen
		case r.SeqLen > 0: // inference: tokens per sequence are the context (Workload.Defaults)
			s.MaxModelLen = r.SeqLen
		case s.PromptTokens > 0:
			// Prompt and output are averages: the longest request is
			// longer, and vLLM rejects a request past --max-model-len.
			// The model's default context, as without them, unless one
			// average request is longer.
			s.MaxModelLen = max(s.PromptTokens+s.OutputTokens, w.ContextLen)
		default:
			s.MaxModelLen = w.ContextLen
		}
	}
	if audio && !outputGiven {
		// Without an output length, a transcription fills the decoder's
		// context (max_target_positions, 448 for Whisper): the most one
		// 30 s window can produce, as a text request without a prompt
		// length fills its context below.
		s.OutputTokens = max(s.MaxModelLen-s.PromptTokens, 1)
	}
	if s.PromptTokens == 0 {
		s.PromptTokens = max(s.MaxModelLen-s.OutputTokens, 1)
	}
	if s.Concurrency == 0 && s.RequestsPerSec == 0 {
		// No load named (neither [serve]'s nor the older sequences): the
		// question is what a token costs, at the default concurrency.
		s.PerToken = r.Sequences == 0
		s.Concurrency = cmp.Or(r.Sequences, w.Sequences)
	}
	if s.TPOTTargetMs == 0 && !s.NoTPOTTarget {
		s.TPOTTargetMs, s.DefaultTPOT = serve.DefaultTPOTTargetMs, true
	}
	if s.TP == 0 {
		s.TP = r.TP
	}
	return s
}
