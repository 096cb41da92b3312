package serve

import (
	"math"

	"github.com/gpuplan/gpuplan/model"
)

// Memory is one GPU's memory as vLLM lays it out for serving, in bytes.
//
// vLLM (v0.11, vllm/v1/worker/gpu_worker.py Worker.determine_available_memory)
// loads the weights, runs one profiling step at the scheduler's largest batch
// (gpu_model_runner.py GPUModelRunner.profile_run: a forward pass of
// max_num_batched_tokens tokens, then the sampler on max_num_seqs dummy
// requests), measures the torch peak plus memory allocated outside torch
// (NCCL, custom all-reduce buffers), and gives the KV cache what is left of
// gpu_memory_utilization × total:
//
//	KV cache = total × gpu_memory_utilization − weights − peak activation − non-torch
//
// CUDA graphs are captured after the KV cache is allocated, so they come out
// of the (1 − gpu_memory_utilization) headroom, as does the CUDA context.
// Later vLLM releases also subtract an estimate of the CUDA graphs' memory
// from the KV cache ("CUDA graph memory profiling is enabled (default since
// v0.21.0) … To disable, set VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0",
// gpu_worker.py's log as vLLM 0.27.1 prints it, gpustack/runner#251); that
// estimate is not modelled here: no published size formula, and it changed
// again later (vllm-project/vllm#50780: hybrid models since v0.26.0).
type Memory struct {
	TotalBytes  float64 // the GPU's memory as the driver reports it
	BudgetBytes float64 // TotalBytes × gpu_memory_utilization
	Weights     float64 // this GPU's share of the weights
	Activation  float64 // peak of the profiling step (see ActivationBytes)
	NonTorch    float64 // allocations outside PyTorch (NCCL, custom all-reduce)
	KVCache     float64 // what is left for the KV cache; negative when nothing is

	// LoRA is the part of Weights that is vLLM's LoRA slots
	// (LoRABytes: Serving.LoRA), allocated as the model loads; 0 without
	// an adapter. A decode step reads them too, as the punica kernels
	// apply the adapter to every token of the batch.
	LoRA float64

	// RoutedExperts is the part of Weights that is an MoE's routed
	// experts (0 for a dense model), as vLLM lays them out on this GPU:
	// what a decode step skips of the experts no token is routed to
	// (DecodeWeightBytes).
	RoutedExperts float64

	// KVBytesPerToken is the KV cache one token costs on this GPU: 2 ×
	// layers on this GPU × KV heads on this GPU × head_dim × dtype bytes;
	// for a model with sliding-window layers (Layout), which hold fewer
	// tokens than the full-attention ones, what one request of
	// max_model_len holds ÷ max_model_len.
	KVBytesPerToken float64
	// KVTokens are the tokens of KV cache per replica: whole 16-token
	// blocks; with sliding-window layers the tokens of max_model_len
	// requests the blocks hold, MaxConcurrency × max_model_len, as vLLM
	// logs "GPU KV cache size" for such a layout (_report_kv_cache_config:
	// "a naive `num_blocks // num_groups * block_size` formula
	// underestimates capacity for these models").
	KVTokens int
	// Layout is how vLLM groups the layers' KV cache (KVLayout) and
	// KVBlocks the 16-token blocks of its pool (num_blocks), each
	// Layout.BlockBytes.
	Layout   KVLayout
	KVBlocks int
	// CrossTokens are the KV-cache tokens each request of an
	// encoder-decoder holds for its decoder's cross-attention over the
	// encoder's output, whatever its decoder length (CrossAttentionTokens:
	// Whisper's 1500 positions in 94 blocks); 0 for a decoder-only model.
	CrossTokens int
	// MaxConcurrency is KVTokens ÷ (MaxModelLen + CrossTokens): requests
	// of full length that fit at once (vLLM logs it as "Maximum
	// concurrency for N tokens per request").
	MaxConcurrency float64
}

// Fits reports whether the KV cache holds at least one request of
// MaxModelLen tokens; vLLM refuses to start otherwise
// (vllm/v1/core/kv_cache_utils.py check_enough_kv_cache_memory).
func (m *Memory) Fits() bool { return m.MaxConcurrency >= 1 }

// Serving memory constants, each measured on vLLM v0.11.0 by llm-d
// (llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md,
// H100 80GB, logs "torch peak memory increase" and "non-torch forward
// increase memory").
const (
	// SamplerBytesPerLogit is the peak memory of vLLM's dummy sampler run per
	// logit (max_num_seqs × vocabulary): fp32 logits plus the sorted copy,
	// int64 indices and probabilities that top-k/top-p and the penalties
	// build. Derived from one measurement only, Llama-3.1-8B (vocab 128256,
	// max_num_seqs 1024): (4.76 GiB − 8192 × 4096 × 2 B of hidden states) ÷
	// (1024 × 128256) = 38.4 B; the other models of the same table (vocab
	// 151936 and 201088, TP 1 and 2) are checked against it in
	// TestServeCalibration.
	SamplerBytesPerLogit = 38.4
	// NonTorchBytes is memory allocated outside PyTorch on one GPU:
	// "0.13 GiB" at TP 1; tensor parallelism adds vLLM's custom
	// all-reduce buffers (customAllReduceBytes) and NCCL's
	// (Tuning.NonTorchTPGiB).
	NonTorchBytes = 0.13 * model.GiB
)

// CustomAllReduceMaxBytes is vLLM's custom all-reduce buffer size per
// rank, max_size=8192 × 1024 in CustomAllreduce.__init__
// (vllm/distributed/device_communicators/custom_all_reduce.py).
const CustomAllReduceMaxBytes = 8192 * 1024

// customAllReduceBytes returns the IPC buffers vLLM's custom all-reduce
// allocates outside PyTorch on each of tp GPUs: CustomAllreduce._complete_init
// calls create_shared_buffer for the metadata plus a max_size scratch
// buffer and for a max_size registered input buffer (ops.meta_size() is a
// few KiB, left out); peers' buffers are mapped, not allocated. It is 0
// where vLLM leaves custom all-reduce off: world sizes other than 2, 4, 6
// and 8 (_SUPPORTED_WORLD_SIZES), and more than two GPUs that are not
// fully connected by NVLink. The 8 MiB rank_data tensor is a torch
// allocation and is not counted here.
func customAllReduceBytes(g *model.GPU, tp int) float64 {
	if !customAllReduceWorldSize(tp) {
		return 0
	}
	if tp > 2 && g.Interconnect != "nvlink" {
		return 0
	}
	return 2 * CustomAllReduceMaxBytes
}

// customAllReduceWorldSize reports whether vLLM's custom all-reduce runs
// on tp GPUs at all: CustomAllreduce._SUPPORTED_WORLD_SIZES = [2, 4, 6,
// 8]; at other sizes __init__ returns disabled ("Custom allreduce is
// disabled due to an unsupported world size"), allocating no buffers, and
// the all-reduce is NCCL's (vllm-project/vllm @ 00d618aab604,
// vllm/distributed/device_communicators/custom_all_reduce.py). The memory
// (customAllReduceBytes) and the timing (allReduceSec) both follow it.
func customAllReduceWorldSize(tp int) bool {
	switch tp {
	case 2, 4, 6, 8:
		return true
	}
	return false
}

// Int4GroupBytesPerParam is AWQ/GPTQ int4 storage per weight with group
// size 128: the 4-bit weight, one fp16 scale and one 4-bit zero point per
// group of 128 inputs (vllm/model_executor/layers/quantization/awq.py
// AWQLinearMethod.create_weights: qweight int32 packs 8 weights, qzeros
// int32 packs 8 zeros per group, scales fp16 per group; gptq.py adds a
// g_idx of one int32 per input row, under 0.1% more). It equals
// model.Int4BytesPerParam.
const Int4GroupBytesPerParam = 0.5 + (0.5+2)/128

// BNB4BytesPerParam is bitsandbytes 4-bit NF4 as vLLM holds it: 4 bits of
// weight and one fp32 absmax per 64-value block (bitsandbytes quantize_4bit,
// blocksize 64), 0.5 + 4/64 bytes. Double quantization does not shrink it
// in vLLM, which dequantizes the nested absmax to fp32 as it loads
// (vllm/model_executor/model_loader/bitsandbytes_loader.py dequantize_dq:
// "at the cost of increased memory usage"); a 16-bit checkpoint quantized
// as it loads gets the same (quantize_4bit(..., compress_statistics=True,
// quant_type="nf4"), then dequantize_dq).
const BNB4BytesPerParam = 0.5 + 4.0/64

// MXFP4BytesPerParam is OCP Microscaling MXFP4 storage per weight: a
// 4-bit E2M1 element and one 8-bit E8M0 scale shared by each block of 32
// (OCP Microscaling Formats (MX) Specification v1.0, §5 Table 1: MXFP4
// k = 32, scale E8M0; gpt-oss stores *_blocks uint8 pairs and *_scales
// uint8 per 32, transformers integrations/mxfp4.py), 0.5 + 1/32 bytes.
const MXFP4BytesPerParam = 0.5 + 1.0/32

// mxfp4Kernel is the MoE kernel family vLLM loads an MXFP4 checkpoint's
// experts into, which sets how it pads and stores them (mxfp4ExpertBytes).
// vLLM picks it per GPU (select_mxfp4_moe_backend in
// vllm/model_executor/layers/fused_moe/oracle/mxfp4.py, vllm-project/vllm
// at 001eda31e3d032e9dc864e97f3630358b2ff8b5a, lines 169–184 and 197–380:
// the first of FLASHINFER_TRTLLM_MXFP4_BF16, CK, TRITON,
// FLASHINFER_CUTLASS_MXFP4_BF16, TRITON_UNFUSED, MARLIN that supports the
// GPU, with triton_kernels supported for compute capability 9.0 up to but
// not including 11.0, lines 204–207).
type mxfp4Kernel int

const (
	// mxfp4Marlin is Marlin weight-only FP4: every NVIDIA GPU below 9.0
	// (vLLM's MXFP4 needs 8.0, FormatOn) and the 11.x and 12.x ones
	// (Thor, RTX 50, RTX PRO Blackwell), where neither FlashInfer's
	// TRT-LLM kernels (SM100 family) nor triton_kernels (9.0–11.0) run.
	mxfp4Marlin mxfp4Kernel = iota
	// mxfp4Triton is OpenAI's triton_kernels (matmul_ogs) on Hopper, 9.x.
	mxfp4Triton
	// mxfp4TRTLLM is FlashInfer's TRT-LLM MXFP4 kernels on the SM100
	// family, 10.x (B200, GB200, B300).
	mxfp4TRTLLM
	// mxfp4ROCm is AMD's: AITER (CK) or triton_kernels, which vLLM pads
	// alike on ROCm.
	mxfp4ROCm
)

// mxfp4KernelOn returns the kernel family vLLM runs MXFP4 experts with on
// g (mxfp4Kernel): Triton on compute capability 9.x, FlashInfer TRT-LLM on
// 10.x, ROCm's on AMD, Marlin on everything else. FlashInfer and
// triton_kernels are taken as installed, as vLLM's CUDA wheel has them
// (requirements/cuda.txt flashinfer-python; triton_kernels vendored as
// vllm/third_party/triton_kernels by cmake/external_projects/triton_kernels.cmake).
func mxfp4KernelOn(g *model.GPU) mxfp4Kernel {
	switch {
	case g == nil:
		return mxfp4Marlin
	case g.Vendor == "amd":
		return mxfp4ROCm
	case g.CCAtLeast(11, 0) || !g.CCAtLeast(9, 0):
		return mxfp4Marlin
	case g.CCAtLeast(10, 0):
		return mxfp4TRTLLM
	}
	return mxfp4Triton
}

// MXFP4Layout says how vLLM holds an MXFP4 checkpoint's experts on g
// (mxfp4KernelOn, mxfp4ExpertBytes), for a report's assumptions.
func MXFP4Layout(g *model.GPU) model.Message {
	switch mxfp4KernelOn(g) {
	case mxfp4Triton:
		return model.Msg("MXFP4 experts as vLLM's triton_kernels MoE kernel holds them on Hopper: each expert's inner size per GPU padded to a multiple of 64, the swizzled weights and scales padded as triton_kernels' Hopper layouts pad them, biases fp32 (vllm/model_executor/layers/fused_moe/oracle/mxfp4.py, quantization/utils/mxfp4_utils.py)")
	case mxfp4TRTLLM:
		return model.Msg("MXFP4 experts as vLLM's FlashInfer TRT-LLM MoE kernel holds them (compute capability 10.x): each expert's inner size per GPU and the hidden size padded to multiples of 256, biases fp32 (vllm/model_executor/layers/fused_moe/oracle/mxfp4.py)")
	case mxfp4ROCm:
		return model.Msg("MXFP4 experts as vLLM holds them on ROCm: each expert's inner size per GPU and the hidden size padded to multiples of 256, biases fp32 (vllm/model_executor/layers/fused_moe/oracle/mxfp4.py)")
	}
	return model.Msg("MXFP4 experts as vLLM's Marlin MoE kernel holds them (compute capability 8.x, 11.x and 12.x): each expert's inner size per GPU padded to a multiple of 128 and the hidden size to 256, biases bf16 (vllm/model_executor/layers/fused_moe/oracle/mxfp4.py, quantization/utils/marlin_utils_fp4.py)")
}

func roundUp(n, m int) int { return cdiv(n, m) * m }

// mxfp4ExpertBytes returns the bytes one routed expert of one MoE layer
// holds on one GPU once vLLM has loaded an MXFP4 checkpoint with kernel k:
// hidden size h, inner size f split over tp GPUs (FusedMoE's
// intermediate_size_per_partition), a gated MLP's gate and up fused in
// w13 (gpt-oss), expert biases when bias. The checkpoint stores 0.5 + 1/32
// bytes a weight and bf16 biases (MXFP4BytesPerParam); vLLM rounds the
// sizes up for its kernel before it allocates, then converts:
//
//   - Marlin: f/tp up to a multiple of 128, h of 256; weights and E8M0
//     scales repacked at the same bytes; biases in the model dtype, bf16.
//   - FlashInfer TRT-LLM and ROCm: f/tp and h up to multiples of 256;
//     weights and scales shuffled at the same bytes; biases fp32.
//   - Triton (Hopper): f/tp up to a multiple of 64, h as is; biases fp32;
//     triton_kernels' Hopper layouts pad the swizzled copies — values to
//     64-byte multiples of both storage dimensions, scales to multiples
//     of 32·num_warps = 256 rows and 2 groups — and vLLM frees the
//     unswizzled scales.
//
// Sources (vllm-project/vllm): the sizes from
// mxfp4_round_up_hidden_size_and_intermediate_size
// (fused_moe/oracle/mxfp4.py at 001eda31e3d0, lines 383–407; the same in
// oracle/gpt_oss_mxfp4.py at 80416a17e35d), applied by the MoE method's
// maybe_roundup_sizes before create_weights allocates w13 (E, 2·f, h/2)
// and w2 (E, h, f/2) uint8, scales (E, 2·f, h/32) and (E, h, f/32) uint8,
// biases bf16 (quantization/mxfp4.py Mxfp4MoEMethod.create_weights at
// 007d50058a06, which rounds the sizes itself by the same rules but
// ROCm's, 128 there, 256 on gfx950: get_padding_alignment);
// the conversions in convert_to_mxfp4_moe_kernel_format (oracle/mxfp4.py
// at 001eda31e3d0: TRT-LLM biases .to(torch.float32), lines 464–465; the
// TRITON_BACKENDS branch's the same, then _swizzle_mxfp4; CK's fp32 too),
// prepare_moe_mxfp4_layer_for_marlin (quantization/utils/marlin_utils_fp4.py
// at 00d52e93: gptq_marlin_repack, mxfp4_marlin_process_scales to
// float8_e8m0fnu, biases .to(param_dtype)); the unswizzled scales freed on
// Triton by vllm-project/vllm#46549 ("Free unused MXFP4 scales in OAI
// Triton Backend", 2026-06-24; before it vLLM held both copies, +3.3 GiB
// for gpt-oss-120b). triton_kernels' Hopper layouts (_swizzle_mxfp4,
// quantization/utils/mxfp4_utils.py at 01b817dbbd2e, lines 51–58, mx_axis 1)
// as triton-lang/triton has them: HopperMXValueLayout.swizzle_data "Pre-pad
// both matrix dims to multiples of 64" (layout_details/hopper_value.py at
// 974c4f9f544d, lines 131–137) on the transposed uint8 storage (w13: h/2
// × 2·f, w2: f/2 × h), HopperMXScaleLayout.swizzle_data
// SWIZZLE_ALIGN_M = 2·num_warps·2·8, SWIZZLE_ALIGN_K = 2 (hopper_scale.py
// at 57af0d623c97, lines 33–37; num_warps 8, line 15). vLLM builds
// triton_kernels from a triton tag (cmake/external_projects/triton_kernels.cmake
// DEFAULT_TRITON_KERNELS_TAG, v3.6.0 in the newest copy read here; the
// file at that tag was not read): triton's release/3.6.x was cut
// 2025-12-01 (triton-lang/triton#8862), after the 64-multiple padding came
// in (triton-lang/triton#8677, "pad tensors in HopperValue layout"). Left
// out: per-expert scalars (TRT-LLM's gemm1 alpha, beta and clamp, 12
// bytes), and the zero-padding of Hopper scale groups to a multiple of 4
// that vllm-project/vllm#47910 added as triton-lang/triton#10800 reports it
// (90 → 92 groups for gpt-oss, +0.08 GiB at 120b; not read here).
//
// vLLM 0.14.1's "Model loading took 64.38 GiB" for gpt-oss-120b on one
// H100 (vllm-project/vllm#33155; testdata/serving_calibration_weights.toml)
// is this layout as it was before vllm-project/vllm#46549, the unswizzled
// scales kept (+777,600 B an expert), and with no 64-byte value padding
// (−276,480 B an expert): 64.30 GiB, where the current one gives 62.15.
func mxfp4ExpertBytes(k mxfp4Kernel, h, f, tp int, gated, bias bool) float64 {
	shards := 1 // w13 holds gate and up for a gated MLP, up alone else
	if gated {
		shards = 2
	}
	fp := cdiv(f, max(tp, 1))
	var w, b float64 // weights with their scales; biases
	switch k {
	case mxfp4Triton:
		ip := roundUp(fp, 64)
		w13 := roundUp(h/2, 64) * roundUp(shards*ip, 64)
		w2 := roundUp(ip/2, 64) * roundUp(h, 64)
		s13 := roundUp(shards*ip, 256) * roundUp(h/32, 2)
		s2 := roundUp(h, 256) * roundUp(ip/32, 2)
		w = float64(w13 + w2 + s13 + s2)
		b = float64(shards*ip+h) * 4
	default:
		ip, hp, bb := roundUp(fp, 128), roundUp(h, 256), 2.0
		if k != mxfp4Marlin {
			ip, bb = roundUp(fp, 256), 4
		}
		w = float64((shards+1)*ip*hp) * MXFP4BytesPerParam
		b = float64(shards*ip+hp) * bb
	}
	if !bias {
		b = 0
	}
	return w + b
}

// weightBytesOn returns the weight bytes one GPU of a tp × pp replica of
// a holds in format f on g, other weights at dense bytes each
// (weightBytesAt), and the part of them that is routed experts
// (RoutedExpertBytes' share, as loaded): weightBytesAt ÷ (tp·pp), except
// that an MXFP4 checkpoint's routed experts take the bytes vLLM lays them
// out in on g (mxfp4ExpertBytes), not the checkpoint's. gpt-oss-120b on
// one GPU: 60.77 GiB as released, 65.90 GiB on Ampere and Ada (Marlin),
// 62.15 GiB on Hopper (Triton), 68.67 GiB on Blackwell B200 (TRT-LLM).
// Shared experts, which vLLM's MXFP4 config leaves to the linear layers,
// keep the checkpoint's bytes here as WeightBytes counts them.
func weightBytesOn(a *model.Architecture, f WeightFormat, dense float64, g *model.GPU, tp, pp int) (weights, routed float64) {
	n := float64(tp * pp)
	params := a.RoutedExpertLinearParams()
	if f != WeightMXFP4 || params <= 0 || a.Hidden <= 0 || a.FFN <= 0 {
		return weightBytesAt(a, f, dense) / n, RoutedExpertBytes(a, f) / n
	}
	one := float64(a.Hidden) * float64(a.FFN) * 2 // one expert's linear weights
	shards := 1.0
	if a.GatedMLP {
		one, shards = one*1.5, 2
	}
	count := params / one // MoE layers × routed experts (scaled as ExpertLinearParams is)
	checkpoint := params * MXFP4BytesPerParam
	if a.LinearBias {
		checkpoint += count * (shards*float64(a.FFN) + float64(a.Hidden)) * dense
	}
	routed = count * mxfp4ExpertBytes(mxfp4KernelOn(g), a.Hidden, a.FFN, tp, a.GatedMLP, a.LinearBias) / float64(max(pp, 1))
	return (weightBytesAt(a, f, dense)-checkpoint)/n + routed, routed
}

// weightBytesPerLinear returns bytes per linear-layer weight for f.
// Embeddings, norms and the LM head stay 16-bit in every format (AWQ, GPTQ
// and the fp8 checkpoints skip lm_head and embed_tokens). The catalog's
// fp8 format quantizes every decoder layer's attention and MLP linears, as
// its reference checkpoints do: the compressed-tensors FP8 releases
// (RedHatAI/neuralmagic "…-FP8", quantization_config ignore ["lm_head"])
// and Qwen's block fp8 ones; a config.json that leaves modules unconverted
// says so (modules_to_not_convert, ignored_layers, ignore) and those stay
// 16-bit (WeightBytes, Architecture.UnquantizedLinearParams).
func weightBytesPerLinear(f WeightFormat) float64 {
	switch f {
	case WeightFP8:
		return 1 // per-channel or per-tensor scales are under 0.1%
	case WeightInt8:
		return model.Int8BytesPerParam
	case WeightAWQ, WeightGPTQ:
		return Int4GroupBytesPerParam
	case WeightBNB:
		return BNB4BytesPerParam
	case WeightFP32:
		return 4
	}
	return 2
}

// fp8BlockBytesPerParam returns bytes per weight of a block-quantized fp8
// checkpoint with blocks of n×k weights: one fp8 byte plus one float32
// scale per block, 1 + 4/(n·k) (1.000244 at DeepSeek-V3's [128, 128]).
// vLLM stores the scales so: weight_scale_inv of float32, ⌈out/n⌉ × ⌈in/k⌉
// per linear layer (vllm/model_executor/layers/quantization/fp8.py,
// Fp8LinearMethod.create_weights, BlockQuantScaleParameter) and per expert
// (Fp8MoEMethod.create_weights: "For block quant, the scales are per block
// (typically 128x128)"); the ceilings add under 0.1% and are left out.
func fp8BlockBytesPerParam(block [2]int) float64 {
	if block[0] < 1 || block[1] < 1 {
		return 1 // per-channel or per-tensor scales are under 0.1%
	}
	return 1 + 4/float64(block[0]*block[1])
}

// linearBytesPerParam is weightBytesPerLinear for a's checkpoint: fp8
// adds a's block scales (Architecture.WeightBlockSize).
func linearBytesPerParam(a *model.Architecture, f WeightFormat) float64 {
	if f == WeightFP8 {
		return fp8BlockBytesPerParam(a.WeightBlockSize)
	}
	return weightBytesPerLinear(f)
}

// WeightBytes returns the weight bytes of the whole model in format f.
// MXFP4 quantizes only the routed experts (ExpertLinearParams); the other
// weights stay 16-bit, as gpt-oss's modules_to_not_convert keeps them.
// fp8 counts a block-quantized checkpoint's scales (fp8BlockBytesPerParam).
// WeightFP32 is 4 bytes a weight.
func WeightBytes(a *model.Architecture, f WeightFormat) float64 {
	dense := 2.0
	if f == WeightFP32 {
		dense = 4
	}
	return weightBytesAt(a, f, dense)
}

// weightBytesAt is WeightBytes with the weights a format leaves
// unquantized (embeddings, norms, skipped modules; all of them in bf16,
// fp16 and fp32) at dense bytes each: 4 where the model runs in float32
// (Serving.Float32), its unquantized parameters being created in the
// model's dtype (vLLM's params_dtype).
func weightBytesAt(a *model.Architecture, f WeightFormat, dense float64) float64 {
	total := a.ParamCount()
	if f == WeightMXFP4 {
		experts := a.ExpertLinearParams()
		return experts*MXFP4BytesPerParam + (total-experts)*dense
	}
	linear := a.LinearParams()
	if f != WeightBF16 && f != WeightFP16 && f != WeightFP32 {
		// The modules a checkpoint leaves unconverted stay at their 16-bit
		// dtype (Architecture.UnquantizedLinearParams): vLLM gives them
		// UnquantizedLinearMethod (quantization/fbgemm_fp8.py
		// FBGEMMFp8Config.get_quant_method and quantization/fp8.py
		// Fp8Config.get_quant_method, both through
		// utils/quant_utils.py is_layer_skipped; compressed-tensors through
		// should_ignore_layer).
		unq := a.UnquantizedLinearParams()
		return (linear-unq)*linearBytesPerParam(a, f) + (total-linear+unq)*dense
	}
	return total * dense // every weight in the model's dtype
}

// RoutedExpertBytes returns the weight bytes of the routed experts of all
// MoE layers in format f (shared experts, dense layers' MLPs, attention,
// routers and embeddings excluded), 0 for a dense model: the part of the
// weights a decode step reads only where the batch's tokens are routed
// (DecodeWeightBytes). Every FFN-sized MLP of an MoE layer has the same
// linear weights, so the routed ones are Experts ÷ (Experts + SharedExperts)
// of ExpertLinearParams.
func RoutedExpertBytes(a *model.Architecture, f WeightFormat) float64 {
	if a.Experts <= 1 {
		return 0
	}
	p := a.ExpertLinearParams() * float64(a.Experts) / float64(a.Experts+a.SharedExperts)
	if f == WeightMXFP4 {
		return p * MXFP4BytesPerParam
	}
	return p * linearBytesPerParam(a, f)
}

// ExpectedExpertsTouched returns the expected number of distinct routed
// experts that tokens tokens select in one MoE layer, each choosing its
// top-k of e experts: e·(1 − (1 − k/e)^tokens). It assumes uniform,
// independent routing: under it one token picks a given expert with
// probability k/e (k distinct of e, each equally likely), so the expert is
// left out by all tokens with probability (1 − k/e)^tokens, and by
// linearity of expectation the number picked is e times the complement.
// Real routers are not uniform (trained with load-balancing losses that
// push them toward it: Fedus et al., 2021, "Switch Transformers", §2.2;
// DeepSeek-V3's auxiliary-loss-free balancing, arXiv 2412.19437, §2.1.2),
// and skew lowers the count: uniform routing bounds the experts read from
// above. One token touches exactly k; from about 4·e/k tokens on nearly
// all are touched. Dense models (e ≤ 1) return 1.
func ExpectedExpertsTouched(e, k int, tokens float64) float64 {
	if e <= 1 || k <= 0 || tokens <= 0 {
		return float64(max(min(e, 1), 0))
	}
	if k >= e {
		return float64(e)
	}
	return float64(e) * (1 - math.Pow(1-float64(k)/float64(e), tokens))
}

// DecodeWeightBytes returns the weight bytes one GPU of a tp × pp replica
// reads in an engine step of tokens tokens: every dense weight (attention,
// dense MLPs, shared experts, routers, the LM head; the share mem.Weights
// holds, less the embedding rows the step gathers, lookupBytes) and, of the
// routed experts, only those the step's tokens are routed to. vLLM's fused
// MoE kernel reads an expert's weights only for a block of tokens routed to
// it: moe_align_block_size sorts the tokens by expert and pads each
// expert's run to BLOCK_SIZE_M, and each program of fused_moe_kernel takes
// one block and loads that block's expert (off_experts =
// expert_ids[pid_m]; b_ptr + off_experts * stride_be), so an expert with no
// token has no block and its weights are not read
// (vllm/model_executor/layers/fused_moe/fused_moe.py, fused_moe_kernel;
// moe_align_block_size.py). Tensor parallelism splits every expert over
// the tp GPUs (FusedMoE's intermediate_size_per_partition), so each GPU
// reads the same fraction of its share. The expected experts touched are
// ExpectedExpertsTouched: at one token an MoE reads its active parameters,
// at a large batch all of them.
func DecodeWeightBytes(a *model.Architecture, f WeightFormat, weightsPerGPU float64, tp, pp int, tokens float64) float64 {
	dense := 2.0
	if f == WeightFP32 {
		dense = 4
	}
	return decodeWeightBytes(a, weightsPerGPU, RoutedExpertBytes(a, f)/float64(tp*pp), tp, pp, tokens, dense)
}

// decodeWeightBytes is DecodeWeightBytes with the embedding table at dense
// bytes a weight (Serving.denseBytes) and routedPerGPU the routed experts'
// bytes on the GPU (Memory.RoutedExperts: as loaded, padding and all).
func decodeWeightBytes(a *model.Architecture, weightsPerGPU, routedPerGPU float64, tp, pp int, tokens, dense float64) float64 {
	w := max(weightsPerGPU-lookupBytes(a, tp, pp)*dense/2, 0)
	if a.Experts <= 1 || a.ExpertsPerToken <= 0 {
		return w
	}
	untouched := 1 - ExpectedExpertsTouched(a.Experts, a.ExpertsPerToken, math.Max(tokens, 1))/float64(a.Experts)
	return max(w-routedPerGPU*untouched, 0)
}

// kvHeadsPerGPU returns the KV heads one GPU stores under tensor
// parallelism tp: split when there are at least tp, else replicated
// (vllm/model_executor/layers/linear.py QKVParallelLinear: "num_kv_heads
// ... replicated" when tp_size ≥ total_num_kv_heads).
func kvHeadsPerGPU(a *model.Architecture, tp int) int {
	kv := a.EffectiveKVHeads()
	if kv >= tp {
		return kv / tp
	}
	return 1
}

// encDec reports whether a is an encoder-decoder: its encoder runs once
// per request, its decoder generates.
func encDec(a *model.Architecture) bool { return a.Family == model.FamilyEncoderDecoder }

// decoderLayers returns the layers that generate and keep a KV cache: an
// encoder-decoder's DecoderLayers (its Layers are the encoder's, which
// vLLM gives no KV cache: EncoderOnlyAttentionSpec's max_memory_usage_bytes
// is 0, vllm/v1/kv_cache_interface.py), else Layers.
func decoderLayers(a *model.Architecture) int {
	if encDec(a) {
		return a.DecoderLayers
	}
	return a.Layers
}

// CrossAttentionTokens returns the KV-cache tokens one request of an
// encoder-decoder with a fixed encoder length (Whisper: EncoderSeqLen
// 1500) holds for cross-attention, in whole blocks: vLLM keeps each
// decoder layer's cross-attention keys and values of the encoder's output
// in the KV cache, a CrossAttentionSpec of the same page size as the
// self-attention's (vllm/v1/kv_cache_interface.py: max_memory_usage_bytes
// = cdiv(max_num_encoder_input_tokens, block_size) × page_size_bytes),
// and allocates all of it when the request is scheduled, as Whisper's
// input "is always padded to the maximum length"
// (vllm/v1/core/sched/scheduler.py: num_encoder_tokens =
// get_encdec_max_encoder_len, passed to allocate_slots); max_num_encoder_
// input_tokens is that encoder length for an encoder-decoder
// (vllm/config/vllm.py: "Encoder-decoder model detected: setting
// max_num_encoder_input_tokens to encoder length"). The blocks come from
// the one pool the self-attention's come from, so a request holds
// ⌈MaxModelLen ÷ 16⌉ + ⌈1500 ÷ 16⌉ blocks (kv_cache_utils.py
// get_max_concurrency_for_kv_cache_config). 0 for a decoder-only model or
// an encoder-decoder without a fixed encoder length.
func CrossAttentionTokens(a *model.Architecture) int {
	if !encDec(a) || a.EncoderSeqLen <= 0 {
		return 0
	}
	return (a.EncoderSeqLen + vllmBlockSize - 1) / vllmBlockSize * vllmBlockSize
}

// KVBytesPerToken returns KV-cache bytes per token on one GPU of a 16-bit
// model (kvBytesPerTokenAt at kvElementBytes(kv, false)): K and V for
// every layer on the GPU (layers ÷ pp; an encoder-decoder's decoder
// layers, decoderLayers), per KV head on the GPU, per head dimension, at
// 2 bytes ("auto") or 1 (fp8). An encoder-decoder's cross-attention
// tokens (CrossAttentionTokens) cost the same per token. It counts every
// layer for every token: a model's sliding-window layers keep only their
// window (KVLayout, whose LayerBytesPerToken is this ÷ the layers).
func KVBytesPerToken(a *model.Architecture, kv KVCacheDType, tp, pp int) float64 {
	return kvBytesPerTokenAt(a, kvElementBytes(kv, false), tp, pp)
}

// kvBytesPerTokenAt is KVBytesPerToken with elem bytes an element
// (kvElementBytes).
func kvBytesPerTokenAt(a *model.Architecture, elem float64, tp, pp int) float64 {
	layers := math.Ceil(float64(decoderLayers(a)) / float64(max(pp, 1)))
	return layers * layerKVBytesPerToken(a, elem, tp)
}

// layerKVBytesPerToken returns one layer's K and V of one token on one
// GPU of tp, at elem bytes an element: vllm/v1/kv_cache_interface.py
// AttentionSpec.page_size_bytes ÷ block_size, 2 × KV heads on the GPU ×
// head_size × dtype size. Multi-head latent attention keeps one latent of
// kv_lora_rank plus the rotary key per token and layer, the same on
// every TP rank (vllm/v1/attention/backends/mla/common.py: "a single
// latent vector to represent the per-token entry of the KV cache").
func layerKVBytesPerToken(a *model.Architecture, elem float64, tp int) float64 {
	if a.KVLoRARank > 0 {
		return float64(a.KVLoRARank+a.RopeHeadDim) * elem
	}
	return 2 * float64(kvHeadsPerGPU(a, tp)*a.EffectiveHeadDim()) * elem
}

// kvElementBytes returns the bytes of one KV cache element: 1 in fp8;
// in "auto" the model's dtype (vllm/config/cache.py CacheConfig.
// cache_dtype: "auto" uses the model data type), 4 for a model run in
// float32 (Serving.Float32: walk56, Gemma on a V100 planned with 2-byte
// blocks, twice the concurrency vLLM holds), else 2.
func kvElementBytes(kv KVCacheDType, float32 bool) float64 {
	switch {
	case kv.FP8():
		return 1
	case float32:
		return 4
	}
	return 2
}

// ActivationBytes returns the peak of vLLM's profiling step on one GPU
// of the last pipeline stage: the larger of the forward pass over
// max_num_batched_tokens tokens (one block at a time: the residual stream,
// the attention output and the MLP's gate/up output and activation, split by
// tp) and the hidden states kept while the sampler runs on max_num_seqs
// requests over the whole vocabulary (SamplerBytesPerLogit).
func ActivationBytes(a *model.Architecture, tokens, seqs, tp int) float64 {
	return activationBytesAt(a, tokens, seqs, tp, 2)
}

// activationBytesAt is ActivationBytes with activations of dense bytes an
// element (Serving.denseBytes: 4 in float32); the sampler's logits are
// float32 in any case.
func activationBytesAt(a *model.Architecture, tokens, seqs, tp int, dense float64) float64 {
	t := float64(tokens)
	h := float64(a.Hidden)
	f := float64(a.FFN) * float64(a.ActiveExperts())
	inter := 1.0
	if a.GatedMLP {
		inter = 2
	}
	forward := dense * t * (3*h + (inter+1)*f/float64(tp))
	sampler := dense*t*h + float64(seqs)*float64(a.Vocab)*SamplerBytesPerLogit
	return max(forward, sampler)
}

// MemoryOn returns the memory layout of one GPU serving a with s on g
// under tensor parallelism tp and pp pipeline stages. s must have Defaults
// applied.
func MemoryOn(a *model.Architecture, s *Serving, g *model.GPU, tp, pp int) Memory {
	var m Memory
	m.TotalBytes = g.MemoryBytes()
	m.BudgetBytes = m.TotalBytes * s.GPUMemoryUtilization
	m.Weights, m.RoutedExperts = weightBytesOn(a, s.WeightFormat, s.denseBytes(), g, tp, pp)
	m.LoRA = LoRABytes(a, s.LoRA, tp, pp, s.denseBytes())
	m.Weights += m.LoRA
	m.Activation = activationBytesAt(a, s.MaxNumBatchedTokens, s.MaxNumSeqs, tp, s.denseBytes())
	m.NonTorch = NonTorchBytes
	if tp > 1 {
		m.NonTorch += customAllReduceBytes(g, tp) + s.tuning().NonTorchTPGiB*model.GiB
	}
	m.KVCache = m.BudgetBytes - m.Weights - m.Activation - m.NonTorch
	elem := kvElementBytes(s.KVCacheDType, s.Float32())
	m.KVBytesPerToken = kvBytesPerTokenAt(a, elem, tp, pp)
	m.CrossTokens = CrossAttentionTokens(a)
	m.Layout = kvLayout(a, elem, tp, pp)
	if bb := m.Layout.BlockBytes(); m.KVCache > 0 && bb > 0 {
		m.KVBlocks = int(math.Floor(m.KVCache / bb))
	}
	m.KVTokens = m.KVBlocks * vllmBlockSize
	if s.MaxModelLen <= 0 {
		return m
	}
	if !m.Layout.Sliding() {
		m.MaxConcurrency = float64(m.KVTokens) / float64(s.MaxModelLen+m.CrossTokens)
		return m
	}
	// With sliding-window layers a request holds its max_model_len in
	// the full-attention groups and a window in the sliding-window ones
	// (KVLayout.RequestBlocks): vLLM's maximum concurrency is the pool's
	// blocks over those, its "GPU KV cache size" that × max_model_len
	// (_report_kv_cache_config).
	per := m.Layout.RequestBlocks(s.MaxModelLen, s.MaxNumBatchedTokens)
	m.MaxConcurrency = float64(m.KVBlocks) / float64(per)
	m.KVTokens = int(m.MaxConcurrency * float64(s.MaxModelLen))
	m.KVBytesPerToken = float64(per) * m.Layout.BlockBytes() / float64(s.MaxModelLen)
	return m
}

// RequestKVBytes returns the KV cache one request of maxModelLen tokens
// needs at most on this GPU (vLLM's check at start), with
// maxNumBatchedTokens scheduled in a step: its tokens at KVBytesPerToken,
// its blocks (KVLayout.RequestBlocks) with sliding-window layers.
func (m *Memory) RequestKVBytes(maxModelLen, maxNumBatchedTokens int) float64 {
	if m.Layout.Sliding() {
		return float64(m.Layout.RequestBlocks(maxModelLen, maxNumBatchedTokens)) * m.Layout.BlockBytes()
	}
	return m.KVBytesPerToken * float64(m.RequestKVTokens(maxModelLen))
}

// scaledKV returns m with its KV cache's tokens and blocks scaled by f
// (the low end of the KV cache's 90% range: borderline).
func (m Memory) scaledKV(f float64) Memory {
	m.KVTokens = int(float64(m.KVTokens) * f)
	m.KVBlocks = int(float64(m.KVBlocks) * f)
	return m
}

// RequestKVTokens returns the KV-cache tokens one request of MaxModelLen
// tokens holds: MaxModelLen, plus an encoder-decoder's cross-attention
// tokens (Memory.CrossTokens).
func (m *Memory) RequestKVTokens(maxModelLen int) int { return maxModelLen + m.CrossTokens }

// KVCacheRange returns the 90% range of m's KV cache per GPU, in bytes:
// the estimate times the ends of the serve/kv-cache calibration band (b),
// held to what vLLM can allocate. vLLM's KV cache is what is left of
// total × gpu_memory_utilization after the weights, the profiling step's
// activation peak and the memory allocated outside torch (v0.11,
// vllm/v1/worker/gpu_worker.py Worker.determine_available_memory; see
// Memory), so even a profiled peak of 0 leaves it no more than
// BudgetBytes − Weights − NonTorch, and it is never below 0. A new user's
// walk: Qwen3 30B-A3B at TP 8 on H100 SXM printed a range up to 73.54
// GiB of a 71.27 GiB budget. ok is false when m has no KV cache or the
// band is missing.
func (m *Memory) KVCacheRange() (lo, hi float64, b model.Band, ok bool) {
	band, found := calibrationBands["serve/kv-cache"]
	if !found || m.KVCache <= 0 {
		return 0, 0, model.Band{}, false
	}
	ceil := max(m.BudgetBytes-m.Weights-m.NonTorch, 0)
	lo = min(max(m.KVCache*band.Lo, 0), ceil)
	hi = min(max(m.KVCache*band.Hi, 0), ceil)
	return lo, hi, *band, true
}
