package serve

import (
	"math"

	"github.com/gpuplan/gpuplan/model"
)

// Serving speed constants; the utilisations are fitted (Tuning).
const (
	// PCIeGBps is PCIe 4.0 ×16 between GPUs without NVLink: 16 GT/s × 16
	// lanes ≈ 32 GB/s each way (PCI-SIG PCIe 4.0 base specification),
	// counted both ways like GPU.InterconnectGBps.
	PCIeGBps = 64
)

// allReduceLatency returns the fixed cost of one small all-reduce over tp
// GPUs, in seconds: with NVLink vLLM's custom all-reduce, measured on H100
// at 3.7/4.8/5.9 µs for tp 2/4/8 (sgl-project/sglang#2904, "custom
// allreduce" table, 512 B); over PCIe NCCL's path, 9.5/9.1/10.1 µs in the
// same table ("vllm" rows, the NCCL fallback).
func allReduceLatency(tp int, nvlink bool) float64 {
	if !nvlink {
		return 10e-6
	}
	switch {
	case tp <= 2:
		return 3.7e-6
	case tp <= 4:
		return 4.8e-6
	}
	return 5.9e-6
}

// Hardware is what the speed model needs of a replica's GPUs.
type Hardware struct {
	GPU *model.GPU
	// InterconnectGBps is GPU-to-GPU bandwidth per GPU, both directions,
	// 10⁹ B/s; NVLink says whether vLLM's custom all-reduce applies.
	InterconnectGBps float64
	NVLink           bool
}

// Perf is the speed of one replica and of all replicas at the load of
// the Serving workload. Times are seconds, rates per second.
type Perf struct {
	Batch       int     // sequences decoding together on one replica in steady state
	PrefillSec  float64 // one prompt alone: compute-bound
	TTFTSec     float64 // PrefillSec plus one decode step it waits behind
	TPOTSec     float64 // per output token after the first, under load: other requests' prompt chunks included
	StepSec     float64 // one decode step of Batch sequences, without prefill
	MemoryBound bool    // the decode step is bound by memory bandwidth, not compute

	OutputTokensPerSec float64 // per replica
	InputTokensPerSec  float64 // per replica (prompt tokens processed)
	RequestsPerSec     float64 // per replica
}

// servePeakFLOPS returns the dense peak for the weight format on g, in
// FLOP/s: fp8 weights compute in fp8 where the GPU has it (Hopper, Ada);
// int8 and int4 weight-only formats dequantize to 16-bit.
func servePeakFLOPS(g *model.GPU, f WeightFormat) float64 {
	p := model.BF16
	switch f {
	case WeightFP8:
		p = model.FP8
	case WeightFP16:
		p = model.FP16
	}
	return g.PeakTFLOPS(p) * 1e12
}

// serveMatmulParams returns the parameters multiplied per token: the
// active parameters without the input embedding lookup (the LM head is a
// matmul, tied or not).
func serveMatmulParams(a *model.Architecture) float64 {
	n := a.ActiveParams() - float64(a.Vocab+a.LearnedPositions+a.TokenTypes)*float64(a.Hidden)
	if a.Tied {
		n += float64(a.Vocab) * float64(a.Hidden)
	}
	return max(n, 0)
}

// PrefillFLOPs returns the FLOPs of a prompt of p tokens: 2·N per token for
// the matmuls, plus causal attention, 2·L·p²·d_attn (QKᵀ and AV at 2 FLOPs
// per multiply-add over the p²/2 unmasked pairs: Chowdhery et al., 2022,
// "PaLM", Appendix B, halved for the causal mask as FlashAttention skips
// masked blocks).
func PrefillFLOPs(a *model.Architecture, p int) float64 {
	pp := float64(p)
	qd := float64(a.Heads * a.EffectiveHeadDim())
	return 2*serveMatmulParams(a)*pp + 2*float64(a.Layers)*pp*pp*qd
}

// DecodeFLOPs returns the FLOPs of one generated token at context c: 2·N
// plus 4·L·c·d_attn for attending to c cached tokens (PaLM, Appendix B).
func DecodeFLOPs(a *model.Architecture, c float64) float64 {
	return 2*serveMatmulParams(a) + 4*float64(a.Layers)*c*float64(a.Heads*a.EffectiveHeadDim())
}

// tpCommSec returns the all-reduce time of one forward pass over `tokens`
// tokens on one pipeline stage: two all-reduces per layer (after attention
// and after the MLP, Shoeybi et al., 2019, "Megatron-LM", §3) of tokens × h
// 16-bit values, as a ring moves 2(tp−1)/tp of the data each way over the
// link, plus each one's fixed latency. PP adds one send of the hidden states
// per stage boundary.
func tpCommSec(a *model.Architecture, hw *Hardware, tokens float64, tp, pp int) float64 {
	layers := math.Ceil(float64(a.Layers) / float64(pp))
	bytes := tokens * float64(a.Hidden) * 2
	var t float64
	if tp > 1 && hw.InterconnectGBps > 0 {
		oneWay := hw.InterconnectGBps / 2 * 1e9
		per := allReduceLatency(tp, hw.NVLink) + 2*float64(tp-1)/float64(tp)*bytes/oneWay
		t += 2 * layers * per
	}
	if pp > 1 && hw.InterconnectGBps > 0 {
		t += bytes/(hw.InterconnectGBps/2*1e9) + allReduceLatency(2, false)
	}
	return t
}

// lookupBytes returns the bytes of one GPU's share of the input embedding
// tables that a decode step does not read whole: vLLM's
// VocabParallelEmbedding gathers only the rows of the batch's tokens
// (vllm/model_executor/layers/vocab_parallel_embedding.py, forward:
// F.embedding of the masked input ids). A tied table is read whole anyway,
// as the LM head's weight (ParallelLMHead, the logits matmul of
// vllm/model_executor/layers/logits_processor.py). Embeddings stay 16-bit
// in every weight format (weightBytesPerLinear).
func lookupBytes(a *model.Architecture, tp, pp int) float64 {
	if a.Tied {
		return 0
	}
	return 2 * float64(a.Vocab+a.LearnedPositions+a.TokenTypes) * float64(a.Hidden) / float64(tp*pp)
}

// Speed returns the speed of one replica (tp × pp GPUs) serving a with s
// (Defaults applied), holding batch sequences at once.
//
// Prefill alone (PrefillSec, in TTFT) is compute-bound: PrefillFLOPs over
// tp·pp GPUs × peak × MFU. An engine step carrying d decode tokens and f
// prompt tokens takes the slower of memory and compute (Pope et al., 2022,
// "Efficiently Scaling Transformer Inference", §2): every GPU reads its
// weights once — all but the embedding rows it gathers (lookupBytes) — and
// the KV cache of every decoding sequence at the mean context (prompt +
// output/2) at peak bandwidth × MBU, or does d × DecodeFLOPs + f prompt
// tokens' share of PrefillFLOPs at peak × MFU; tensor-parallel all-reduces
// of d + f tokens add tpCommSec, and the engine adds its fixed per-step
// time (Tuning.StepOverheadSec: scheduling, sampling, launches). A pipeline
// of pp stages runs pp micro-batches of batch/pp, so a step is pp
// stage-steps.
//
// vLLM's V1 scheduler always chunks prefill into the running decode steps
// (vllm/v1/core/sched/scheduler.py: running requests' decode tokens first,
// then waiting prompts within max_num_batched_tokens), so a prompt of p
// tokens rides in k = ⌈(p + b − 1) ÷ max_num_batched_tokens⌉ steps beside
// the other b − 1 sequences of its micro-batch. In steady state every
// sequence is busy in every step, prefilling (k steps) or decoding (out − 1
// steps), so a cycle in which each of b sequences is served once has k +
// out − 1 steps (more when the token budget cannot hold all its tokens),
// b·k of them carrying a prompt; a prompt that rides in a memory-bound
// step costs next to nothing. Requests per second is batch ÷ cycle. TPOT is
// what vLLM's benchmark client reports, a request's latency less its time
// to first token over its output tokens less one
// (vllm/benchmarks/serve.py, calculate_metrics: "tpot =
// latency_minus_ttft / (output_len - 1)"): a request lives one cycle and
// its first token comes from its own prefill steps, so TPOT is the cycle
// less those k steps over out − 1.
func Speed(a *model.Architecture, s *Serving, mem *Memory, hw *Hardware, tp, pp, batch int) Perf {
	g := hw.GPU
	gpus := float64(tp * pp)
	peak := servePeakFLOPS(g, s.WeightFormat) * s.tuning().MFU
	bw := g.MemoryBandwidthGBps * 1e9 * s.tuning().MBU
	var p Perf
	if peak <= 0 || bw <= 0 || batch < 1 {
		return p
	}
	p.Batch = batch
	prompt, out := float64(s.PromptTokens), float64(s.OutputTokens)
	p.PrefillSec = PrefillFLOPs(a, s.PromptTokens)/(gpus*peak) + tpCommSec(a, hw, prompt, tp, pp)*float64(pp)

	b := math.Ceil(float64(batch) / float64(pp)) // sequences of one micro-batch
	ctx := prompt + out/2
	memSec := (max(mem.Weights-lookupBytes(a, tp, pp), 0) + b*ctx*mem.KVBytesPerToken) / bw
	decodeFLOPs := DecodeFLOPs(a, ctx)
	promptFLOPs := PrefillFLOPs(a, s.PromptTokens) / max(prompt, 1)
	step := func(d, f float64) float64 {
		flopSec := (d*decodeFLOPs + f*promptFLOPs) / (gpus * peak)
		return (max(memSec, flopSec)+tpCommSec(a, hw, d+f, tp, pp))*float64(pp) + s.tuning().StepOverheadSec
	}
	p.StepSec = step(b, 0)
	p.MemoryBound = memSec >= b*decodeFLOPs/(gpus*peak)

	budget := float64(max(s.MaxNumBatchedTokens, 1))
	k := math.Max(1, math.Ceil((prompt+b-1)/budget)) // steps one prompt is chunked into
	steps := math.Max(k+out-1, math.Ceil(b*(prompt+out-1)/budget))
	var cycle, own float64
	if b*k <= steps {
		// One prompt in flight at a time: b·k steps carry a chunk of
		// p/k prompt tokens beside b − 1 decodes, the rest decode only.
		pre := step(b-1, prompt/k)
		cycle = b*k*pre + (steps-b*k)*p.StepSec
		own = k * pre
	} else {
		// More prompt chunks than steps: every step carries its share.
		avg := step(b*(out-1)/steps, b*prompt/steps)
		cycle, own = steps*avg, k*avg
	}
	p.TTFTSec = p.PrefillSec + p.StepSec
	p.TPOTSec = p.StepSec
	if out > 1 {
		p.TPOTSec = (cycle - own) / (out - 1)
	}
	p.RequestsPerSec = float64(batch) / cycle
	p.OutputTokensPerSec = p.RequestsPerSec * out
	p.InputTokensPerSec = p.RequestsPerSec * prompt
	return p
}

// serveMaxBatch returns the most sequences one replica can hold: vLLM's
// max_num_seqs, and the KV cache at each sequence's mean occupancy
// (prompt + output/2 tokens; the scheduler preempts when it runs out).
func serveMaxBatch(s *Serving, mem *Memory) int {
	occ := float64(s.PromptTokens) + float64(s.OutputTokens)/2
	kv := int(float64(mem.KVTokens) / occ)
	return max(0, min(s.MaxNumSeqs, kv))
}

// USDPerMillionTokens returns the cost of a million tokens at tokensPerSec
// on hardware costing usdPerHour: usdPerHour ÷ (tokensPerSec × 3600) × 10⁶.
// It is +Inf when nothing is produced.
func USDPerMillionTokens(usdPerHour, tokensPerSec float64) float64 {
	if tokensPerSec <= 0 {
		return math.Inf(1)
	}
	return usdPerHour / (tokensPerSec * 3600) * 1e6
}
