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

// customAllReduceLatency returns the fixed cost of one small all-reduce
// over tp GPUs joined by NVLink, in seconds: vLLM's custom all-reduce,
// measured on H100 at 3.7/4.8/5.9 µs for tp 2/4/8 (sgl-project/sglang#2904,
// "custom allreduce" table, 512 B).
func customAllReduceLatency(tp int) float64 {
	switch {
	case tp <= 2:
		return 3.7e-6
	case tp <= 4:
		return 4.8e-6
	}
	return 5.9e-6
}

// ncclNVLinkLatency returns NCCL's modelled latency of a small all-reduce
// over tp GPUs joined by NVLink in one node, in seconds: the ring with the
// LL protocol, baseLat 6.6 µs plus hwLat 0.6 µs for each of its 2(tp−1)
// steps (NVIDIA/nccl @ b6475625fbca, src/graph/tuning.cc: baseLat
// "{ 6.6, 14.0, 8.4 }, // … Ring", hwLat "/* NVLINK */ … /* Ring
// (LL/LL128/Simple)*/ { .6, 1.9, 3.4 }", "comm->latencies[coll][a][p] +=
// (nsteps-nInterSteps)*intraLat"). It is NCCL's own cost model, not a
// measurement: 9.0 µs at tp 3 and 11.4 µs at tp 5, against the custom
// all-reduce's measured 4.8–5.9 µs (customAllReduceLatency).
func ncclNVLinkLatency(tp int) float64 {
	return 6.6e-6 + 2*float64(tp-1)*0.6e-6
}

// ncclPCIeStepSec is NCCL's latency per ring step of its low-latency (LL)
// protocol over PCIe, in seconds: NVIDIA/nccl src/graph/tuning.cc, hwLat
// "/* PCI */ … /* Ring (LL/LL128/Simple)*/ { 1.0, 2.5, 5.7 }" (µs), added
// once per step ("int nsteps = coll == ncclCollAllReduce ?
// 2*(comm->nRanks-1)"; "comm->latencies[coll][a][p] +=
// (nsteps-nInterSteps)*intraLat"). Small messages take LL, the protocol of
// the lowest latency (ncclTopoGetAlgoTime: "*time = lat + (info->nBytes) /
// (1000 * bw)", the least time chosen).
const ncclPCIeStepSec = 1.0e-6

// ncclRing is NCCL's ring all-reduce over PCIe as measured at n ranks:
// t(S) = Lat + 2(n−1)/n · S / BusBW for S bytes (nccl-tests
// doc/PERFORMANCE.md: "t = (S/B) * (2*(n-1)/n)"; NCCL's own model adds
// its latency, tuning.cc "*time = lat + (info->nBytes) / (1000 * bw)").
type ncclRing struct {
	n     int
	Lat   float64 // seconds, at n ranks
	BusBW float64 // bytes/s per link
}

// ncclRingFrom solves Lat and BusBW from two (bytes, seconds) readings of
// one n-rank all-reduce table.
func ncclRingFrom(n int, s1, t1, s2, t2 float64) ncclRing {
	f := 2 * float64(n-1) / float64(n)
	bw := f * (s2 - s1) / (t2 - t1)
	return ncclRing{n: n, Lat: t1 - f*s1/bw, BusBW: bw}
}

// sec returns one all-reduce of s bytes over tp ranks: the measured
// latency moved by ncclPCIeStepSec for each ring step more or fewer than
// at n, the bytes at the measured bus bandwidth.
func (r ncclRing) sec(tp int, s float64) float64 {
	lat := r.Lat + 2*float64(tp-r.n)*ncclPCIeStepSec
	return lat + 2*float64(tp-1)/float64(tp)*s/r.BusBW
}

var (
	// ncclPCIeP2P is NCCL over PCIe with GPU peer-to-peer, 4 ranks, in a
	// CUDA graph as vLLM decodes: four V100 behind one PCIe switch
	// ("P2P works at PCIe line rate but there is no NVLink"),
	// haohervchb/sglang-V100#2 (KB read as 1024 B): "| 4 KB | 19.4 us |" and
	// "| 384 KB | 83.5 us |" (NCCL (PXB) column, "Measured inside a CUDA
	// graph on this host (4 ranks, fp16)"): 18.7 µs + 9.1 GB/s a link.
	// The rows between fit within 4% up to 32 KB ("| 32 KB | 24.2 us |":
	// 24.1 µs); "| 128 KB | 51.8 us |" is 22% above the line (40.3 µs).
	ncclPCIeP2P = ncclRingFrom(4, 4<<10, 19.4e-6, 384<<10, 83.5e-6)
	// ncclPCIeSHM is NCCL without peer-to-peer (its SHM transport through
	// host memory), 2 ranks: two RTX 5070 Ti "no NVLink, no PCIe P2P",
	// sgl-project/sglang#39605: "a 20 MB all-reduce — `[2048, 5120]` bf16
	// … — takes 10.9 ms, 1.9 GB/s", and "the 10 KB decode all-reduces
	// (39 -> 81 µs …)" — 39 µs with the default transport, a 5120-wide
	// bf16 row: 33.7 µs + 1.93 GB/s. Out of sample at 8 ranks (33.7 + 12 ×
	// 1 µs = 45.7 µs): eight GeForce RTX 4090 (GeForce cards have no P2P:
	// "GeForce cards do not support P2P.", NCCL's maintainer in
	// NVIDIA/nccl-tests#287) all-reduce 8 B in "42.14" µs
	// (NVIDIA/nccl#1530, all_reduce_perf -g 8, outside a CUDA graph),
	// eight RTX 3090 in "54.18" µs (NVIDIA/nccl#1439).
	ncclPCIeSHM = ncclRingFrom(2, 5120*2, 39e-6, 2048*5120*2, 10.9e-3)
)

// allReduceSec returns one all-reduce of s bytes over tp GPUs of hw, in
// seconds. With NVLink, vLLM's custom all-reduce: its latency plus a ring's
// 2(tp−1)/tp of the bytes each way over the link; at world sizes it does
// not support (3, 5, 7; customAllReduceWorldSize) vLLM falls back to NCCL,
// timed with NCCL's modelled NVLink latency (ncclNVLinkLatency) and the
// same ring bytes over the link. Over PCIe alone, NCCL:
// vLLM's custom all-reduce is off for more than two GPUs without full
// NVLink (custom_all_reduce.py: "if world_size > 2 and not
// fully_connected: … not supported on more than two PCIe-only GPUs") and
// for any GPUs without peer-to-peer ("Custom allreduce is disabled because
// your platform lacks GPU P2P capability"); symmetric memory needs NVLink
// multicast (symm_mem.py: "if handle.multicast_ptr == 0: … multicast
// operations are not supported") and quick all-reduce ROCm
// (quick_all_reduce.py: "Only the ROCm MI300 series is supported"). Two
// PCIe GPUs with peer-to-peer do run the custom all-reduce
// (should_custom_ar: "if self.world_size == 2 or self.fully_connected"),
// whose PCIe time was not found published; NCCL's stands in for it.
// The PCIe figures are NCCL's measured ones, not the link's datasheet
// rate: neither transport comes near it at these sizes.
func allReduceSec(hw *Hardware, tp int, s float64) float64 {
	switch {
	case hw.NVLink:
		lat := customAllReduceLatency(tp)
		if !customAllReduceWorldSize(tp) {
			lat = ncclNVLinkLatency(tp)
		}
		return lat + 2*float64(tp-1)/float64(tp)*s/(hw.InterconnectGBps/2*1e9)
	case hw.PeerToPeer:
		return ncclPCIeP2P.sec(tp, s)
	}
	return ncclPCIeSHM.sec(tp, s)
}

// Hardware is what the speed model needs of a replica's GPUs.
type Hardware struct {
	GPU *model.GPU
	// InterconnectGBps is GPU-to-GPU bandwidth per GPU, both directions,
	// 10⁹ B/s; NVLink says whether vLLM's custom all-reduce applies (at
	// the world sizes it supports, customAllReduceWorldSize).
	// Without NVLink, PeerToPeer says whether the GPUs reach each other's
	// memory over PCIe (NCCL's P2P transport) or only through host memory
	// (its SHM transport); see allReduceSec.
	InterconnectGBps float64
	NVLink           bool
	PeerToPeer       bool
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
	case WeightFP32:
		p = model.FP32
	}
	return g.PeakTFLOPS(p) * 1e12
}

// servePeak is servePeakFLOPS for s: a model run in float32 (Float32: on
// a GPU without bf16, which has no TF32 either) multiplies at the GPU's
// fp32 rate, without tensor cores, whatever its weight format.
func servePeak(g *model.GPU, s *Serving) float64 {
	if s.Float32() {
		return servePeakFLOPS(g, WeightFP32)
	}
	return servePeakFLOPS(g, s.WeightFormat)
}

// serveMatmulParams returns the parameters multiplied per token: the
// active parameters without the input embedding lookup (the LM head is a
// matmul, tied or not; a classification Head has none, and its score is
// in the active parameters).
func serveMatmulParams(a *model.Architecture) float64 {
	n := a.ActiveParams() - float64(a.Vocab+a.LearnedPositions+a.TokenTypes)*float64(a.Hidden)
	if a.Tied && a.Head == "" {
		n += float64(a.Vocab) * float64(a.Hidden)
	}
	return max(n, 0)
}

// encoderSideParams returns the weights an encoder-decoder multiplies per
// encoder position, once per request, rather than per decoder token: the
// encoder (its blocks, final norm and the front end ExtraParams holds:
// Whisper's convolutions, whose FLOPs per position are within 1% of its
// weights') and each decoder layer's cross-attention key and value
// projections of the encoder's output (h × KV heads·head_dim each), which
// vLLM's Whisper computes when the encoder runs and caches
// (vllm/model_executor/models/whisper.py, WhisperCrossAttention: the
// encoder_attn kv_proj runs on encoder_hidden_states, then the attention
// reads the KV cache). 0 for a decoder-only model. The encoder's share is
// the count without the decoder layers, less the token embeddings and an
// untied head (ParamCount of the encoder-decoder with DecoderLayers 0);
// an explicit parameter count is split by layers.
func encoderSideParams(a *model.Architecture) float64 {
	if !encDec(a) || !a.HasShape() {
		return 0
	}
	h := float64(a.Hidden)
	crossKV := float64(a.DecoderLayers) * 2 * h * float64(a.EffectiveKVHeads()*a.EffectiveHeadDim())
	if a.Params > 0 {
		return a.Params * float64(a.Layers) / float64(a.Layers+a.DecoderLayers)
	}
	enc := *a
	enc.DecoderLayers = 0
	p := enc.ParamCount() - float64(a.Vocab+a.LearnedPositions+a.TokenTypes)*h
	if !a.Tied {
		p -= float64(a.Vocab) * h
	}
	return max(p, 0) + crossKV
}

// tokenMatmulParams returns the weights multiplied per decoder token:
// serveMatmulParams less an encoder-decoder's encoder side
// (encoderSideParams).
func tokenMatmulParams(a *model.Architecture) float64 {
	return max(serveMatmulParams(a)-encoderSideParams(a), 0)
}

// EncoderFLOPs returns the FLOPs an encoder-decoder spends once per
// request before its decoder starts: 2 FLOPs per encoder-side weight
// (encoderSideParams) per encoder position, plus the encoder's
// bidirectional attention, 4·L·S²·d_attn (QKᵀ and AV over all S² pairs:
// Chowdhery et al., 2022, "PaLM", Appendix B, without the causal halving).
// S is the fixed encoder length (Whisper: 1500 positions for its 30 s
// window); 0 for a decoder-only model or an encoder without a fixed length.
func EncoderFLOPs(a *model.Architecture) float64 {
	if !encDec(a) || a.EncoderSeqLen <= 0 {
		return 0
	}
	s := float64(a.EncoderSeqLen)
	qd := float64(a.Heads * a.EffectiveHeadDim())
	return 2*encoderSideParams(a)*s + 4*float64(a.Layers)*s*s*qd
}

// PrefillFLOPs returns the FLOPs of a prompt of p tokens: 2·N per token for
// the matmuls, plus causal attention, 2·L·p²·d_attn (QKᵀ and AV at 2 FLOPs
// per multiply-add over the p²/2 unmasked pairs: Chowdhery et al., 2022,
// "PaLM", Appendix B, halved for the causal mask as FlashAttention skips
// masked blocks). For an encoder-decoder p is the decoder's prompt (Whisper:
// its task tokens), N the weights run per decoder token (tokenMatmulParams),
// L its decoder layers, and the request's encoder pass (EncoderFLOPs) comes
// with the prompt.
//
// A sliding-window layer (Architecture.SlidingWindow) attends each token
// to at most the window: W²/2 + (p − W)·W query-key pairs for p > W in
// place of p²/2.
func PrefillFLOPs(a *model.Architecture, p int) float64 {
	if p <= 0 {
		return 0
	}
	pp := float64(p)
	qd := float64(a.Heads * a.EffectiveHeadDim())
	if sliding, w := slidingLayers(a); sliding > 0 && pp > w {
		full := float64(decoderLayers(a) - sliding)
		return 2*tokenMatmulParams(a)*pp + 2*full*pp*pp*qd + 4*float64(sliding)*(w*w/2+(pp-w)*w)*qd + EncoderFLOPs(a)
	}
	return 2*tokenMatmulParams(a)*pp + 2*float64(decoderLayers(a))*pp*pp*qd + EncoderFLOPs(a)
}

// slidingLayers returns a's sliding-window layers and their window in
// tokens (Architecture.SlidingWindow, SlidingLayers), 0 and 0 without
// (and for multi-head latent attention or an encoder-decoder, which vLLM
// runs without one: kvLayout).
func slidingLayers(a *model.Architecture) (int, float64) {
	if a.SlidingWindow <= 0 || a.KVLoRARank > 0 || encDec(a) {
		return 0, 0
	}
	return min(max(a.SlidingLayers, 0), decoderLayers(a)), float64(a.SlidingWindow)
}

// DecodeFLOPs returns the FLOPs of one generated token at context c: 2·N
// plus 4·L·c·d_attn for attending to c cached tokens (PaLM, Appendix B).
// An encoder-decoder's token also attends to the encoder's S positions in
// every decoder layer (4·L·S·d_attn), and N is its decoder's
// (tokenMatmulParams).
//
// A sliding-window layer attends to at most its window.
func DecodeFLOPs(a *model.Architecture, c float64) float64 {
	qd := float64(a.Heads * a.EffectiveHeadDim())
	if encDec(a) {
		c += float64(max(a.EncoderSeqLen, 0))
	}
	if sliding, w := slidingLayers(a); sliding > 0 && c > w {
		full := float64(decoderLayers(a) - sliding)
		return 2*tokenMatmulParams(a) + 4*(full*c+float64(sliding)*w)*qd
	}
	return 2*tokenMatmulParams(a) + 4*float64(decoderLayers(a))*c*qd
}

// decodeWeightFraction is the share of an encoder-decoder's weights a
// decode step reads: its decoder's, without the encoder side
// (encoderSideParams), which runs only when a request's encoder input is
// scheduled (vLLM's Whisper decoder step takes no encoder_hidden_states);
// 1 for a decoder-only model.
func decodeWeightFraction(a *model.Architecture) float64 {
	total := a.ParamCount()
	if !encDec(a) || total <= 0 {
		return 1
	}
	return max(1-encoderSideParams(a)/total, 0)
}

// tpCommSec returns the all-reduce time of one forward pass over `tokens`
// tokens on one pipeline stage: two all-reduces per layer (after attention
// and after the MLP, Shoeybi et al., 2019, "Megatron-LM", §3) of tokens × h
// 16-bit values (allReduceSec). PP adds one send of the hidden states per
// stage boundary: the bytes one way over the link, plus a two-rank
// all-reduce's fixed cost on the same path in place of a send's, for which
// no measurement was found.
func tpCommSec(a *model.Architecture, hw *Hardware, tokens float64, tp, pp int) float64 {
	return tpCommSecOver(decoderLayers(a), a, hw, tokens, tp, pp)
}

// tpCommSecOver is tpCommSec over n layers (an encoder-decoder's steps run
// its decoder layers, tpCommSec; its encoder pass its encoder layers).
func tpCommSecOver(n int, a *model.Architecture, hw *Hardware, tokens float64, tp, pp int) float64 {
	layers := math.Ceil(float64(n) / float64(pp))
	bytes := tokens * float64(a.Hidden) * 2
	var t float64
	if tp > 1 && hw.InterconnectGBps > 0 {
		t += 2 * layers * allReduceSec(hw, tp, bytes)
	}
	if pp > 1 && hw.InterconnectGBps > 0 {
		t += bytes/(hw.InterconnectGBps/2*1e9) + allReduceSec(hw, 2, 0)
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
	if a.Tied && a.Head == "" { // no LM head reads a classifier's table
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
// weights once — all but the embedding rows it gathers (lookupBytes) and an
// MoE's routed experts that no token of the step is routed to
// (DecodeWeightBytes) — and
// the KV cache of every decoding sequence at the mean context (prompt +
// output/2) at peak bandwidth × MBU, or does d × DecodeFLOPs + f prompt
// tokens' share of PrefillFLOPs at peak × MFU, plus 2·N for each dummy
// token that pads the step to its CUDA graph (cudaGraphPadded: vLLM V1
// runs steps of up to min(max_num_seqs × 2, 512) tokens as captured
// graphs of fixed sizes); tensor-parallel all-reduces
// of d + f tokens add tpCommSec, and the engine adds its fixed per-step
// time (Tuning.StepOverheadSec: scheduling, sampling, launches) and each
// layer's fixed kernel time (Tuning.LayerOverheadSec). A pipeline
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
	peak := servePeak(g, s) * s.tuning().MFU
	bw := g.MemoryBandwidthGBps * 1e9 * s.tuning().MBU
	var p Perf
	if peak <= 0 || bw <= 0 || batch < 1 {
		return p
	}
	p.Batch = batch
	prompt, out := float64(s.PromptTokens), float64(s.OutputTokens)
	cached := s.CachedPromptTokens()
	u := prompt - float64(cached) // prompt tokens computed per request
	p.PrefillSec = (PrefillFLOPs(a, s.PromptTokens)-PrefillFLOPs(a, cached))/(gpus*peak) + tpCommSec(a, hw, u, tp, pp)*float64(pp)
	if encDec(a) && a.EncoderSeqLen > 0 { // the encoder's own all-reduces, over its positions
		p.PrefillSec += tpCommSecOver(a.Layers, a, hw, float64(a.EncoderSeqLen), tp, 1)
	}

	b := math.Ceil(float64(batch) / float64(pp)) // sequences of one micro-batch
	step, memSec := stepTime(a, s, mem, hw, tp, pp, b)
	p.StepSec = step(b, 0)
	pad := float64(cudaGraphPadded(int(b), cudaGraphMaxSize(s.MaxNumSeqs, s.MaxNumBatchedTokens))) - b
	p.MemoryBound = memSec >= (b*DecodeFLOPs(a, prompt+out/2)+pad*2*tokenMatmulParams(a))/(gpus*peak)

	budget := float64(max(s.MaxNumBatchedTokens, 1))
	k := math.Max(1, math.Ceil((u+b-1)/budget)) // steps one prompt is chunked into
	steps := math.Max(k+out-1, math.Ceil(b*(u+out-1)/budget))
	if encDec(a) && a.EncoderSeqLen > 0 {
		// One encoder input a step: the scheduler's encoder budget is
		// max_num_encoder_input_tokens (vllm/v1/core/sched/scheduler.py,
		// _try_schedule_encoder_inputs: a request whose encoder tokens
		// exceed what is left waits), which is the encoder's length for
		// an encoder-decoder (CrossAttentionTokens), so b requests need
		// b steps to start.
		steps = math.Max(steps, b*k)
	}
	var cycle, own float64
	if b*k <= steps {
		// One prompt in flight at a time: b·k steps carry a chunk of
		// p/k prompt tokens beside b − 1 decodes, the rest decode only.
		pre := step(b-1, u/k)
		cycle = b*k*pre + (steps-b*k)*p.StepSec
		own = k * pre
	} else {
		// More prompt chunks than steps: every step carries its share.
		avg := step(b*(out-1)/steps, b*u/steps)
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

// stepTime returns the time of one engine step of a replica holding b
// sequences (one micro-batch of a pp-stage pipeline) as a function of the
// decode tokens d and prompt tokens f it carries, in seconds (see Speed;
// a fractional d + f, the mean of Speed's steps, pads as its ceiling),
// and the memory time of a decode-only step of b tokens. A step reads the
// weights once — of an MoE's routed experts only those its d + f tokens
// are routed to (DecodeWeightBytes) — and b sequences' KV cache at the
// mean context.
func stepTime(a *model.Architecture, s *Serving, mem *Memory, hw *Hardware, tp, pp int, b float64) (func(d, f float64) float64, float64) {
	gpus := float64(tp * pp)
	peak := servePeak(hw.GPU, s) * s.tuning().MFU
	bw := hw.GPU.MemoryBandwidthGBps * 1e9 * s.tuning().MBU
	prompt, out := float64(s.PromptTokens), float64(s.OutputTokens)
	ctx := prompt + out/2
	// An encoder-decoder's step reads each sequence's cross-attention KV
	// too: the encoder's positions in every decoder layer.
	cross := 0.0
	if encDec(a) {
		cross = float64(max(a.EncoderSeqLen, 0))
	}
	kvBytes := b * (ctx + cross) * mem.KVBytesPerToken
	if mem.Layout.Sliding() {
		// A sliding-window layer reads its window only.
		kvBytes = b * mem.Layout.KVReadBytes(ctx)
	}
	frac := decodeWeightFraction(a)
	memOf := func(tokens float64) float64 {
		return (decodeWeightBytes(a, mem.Weights, mem.RoutedExperts, tp, pp, tokens, s.denseBytes())*frac + kvBytes) / bw
	}
	memSec := memOf(b)
	decodeFLOPs := DecodeFLOPs(a, ctx)
	cached := s.CachedPromptTokens()
	promptFLOPs := (PrefillFLOPs(a, s.PromptTokens) - PrefillFLOPs(a, cached)) / max(prompt-float64(cached), 1)
	maxGraph := cudaGraphMaxSize(s.MaxNumSeqs, s.MaxNumBatchedTokens)
	// Every layer's kernels take a fixed time however few tokens they
	// carry (Tuning.LayerOverheadSec); a pipeline's stages run one after
	// another, so a step pays it for every layer of the model.
	// An encoder-decoder's steps run its decoder layers; its encoder runs
	// in the step that starts a request, which promptFLOPs carries.
	layerFloor := float64(decoderLayers(a)) * s.tuning().LayerOverheadSec
	return func(d, f float64) float64 {
		// Dummy tokens padding the step to its CUDA graph run the matmuls
		// (2·N FLOPs each) and attend to nothing.
		pad := float64(cudaGraphPadded(int(math.Ceil(d+f)), maxGraph)) - math.Ceil(d+f)
		flopSec := (d*decodeFLOPs + f*promptFLOPs + pad*2*tokenMatmulParams(a)) / (gpus * peak)
		return (max(memOf(d+f), flopSec)+tpCommSec(a, hw, d+f, tp, pp))*float64(pp) + s.tuning().StepOverheadSec + layerFloor
	}, memSec
}

// cudaGraphMaxSize returns the largest step, in tokens, that vLLM V1 runs
// as a captured CUDA graph by default: min(max_num_seqs × 2, 512), and no
// more than max_num_batched_tokens (vllm/config/compilation.py,
// CompilationConfig.max_cudagraph_capture_size: "If not specified,
// max_cudagraph_capture_size is set to min(max_num_seqs*2, 512) by
// default"; vllm/config/vllm.py, VllmConfig._set_cudagraph_sizes, caps it
// at max_num_batched_tokens).
func cudaGraphMaxSize(maxNumSeqs, maxNumBatchedTokens int) int {
	return max(min(maxNumSeqs*2, 512, maxNumBatchedTokens), 0)
}

// cudaGraphPadded returns the tokens a vLLM V1 step of n tokens runs: the
// smallest captured CUDA graph size ≥ n when n ≤ maxSize, else n (the step
// runs without a graph). The default sizes are 1, 2, 4, then every
// multiple of 8 below 256, then every 16th from 256 to maxSize
// (vllm/config/compilation.py, max_cudagraph_capture_size: "[1, 2, 4] +
// list(range(8, 256, 8)) + list(range(256, max_cudagraph_capture_size +
// 1, 16))"; vllm/config/vllm.py, VllmConfig._set_cudagraph_sizes, keeps
// those ≤ maxSize). The model runner pads a step's scheduled tokens,
// decode and prompt alike, to that size (vllm/v1/worker/gpu_model_runner.py,
// execute_model: "if self.use_cuda_graph and num_scheduled_tokens <=
// self.cudagraph_batch_sizes[-1]: # Use piecewise CUDA graphs. # Add
// padding to the batch size. num_input_tokens =
// self.vllm_config.pad_for_cudagraph(num_scheduled_tokens)"). When maxSize
// is not itself one of the sizes, the largest size below it is the limit.
func cudaGraphPadded(n, maxSize int) int {
	var size int
	switch {
	case n <= 0:
		return max(n, 0)
	case n <= 2:
		size = n
	case n <= 4:
		size = 4
	case n < 256:
		size = (n + 7) / 8 * 8
	default:
		size = 256 + (n-256+15)/16*16
	}
	if size > maxSize {
		return n
	}
	return size
}

// BurstTPOTSec returns the mean TPOT, in seconds, of n requests that reach
// an idle replica (tp GPUs, no pipeline) at the same moment, as vLLM's
// benchmark client reports it when it sends them all at once
// (vllm/benchmarks/serve.py with --num-prompts n and no --request-rate:
// every request is issued without waiting; calculate_metrics: "tpot =
// latency_minus_ttft / (output_len - 1)", averaged over requests). It
// follows vLLM's V1 scheduler step by step
// (vllm/v1/core/sched/scheduler.py, schedule): each step first gives one
// token to every running request that has finished its prompt, then
// fills what is left of the token budget (max_num_batched_tokens) with
// the waiting prompts in arrival order, the last one chunked. A request's
// first token comes from the step that finishes its prompt; its TPOT
// window is the out − 1 steps after it, so it carries only the prompt
// chunks scheduled after its own: the first prompts' windows hold every
// later prompt, the last one's none — about half the others' prefill on
// average, where Speed's steady load (each request replaced as it ends)
// puts every other prompt in the window. Steps time as in Speed, with the
// KV cache of all n sequences. It is 0 when n < 1 or the output is one
// token.
func BurstTPOTSec(a *model.Architecture, s *Serving, mem *Memory, hw *Hardware, tp, n int) float64 {
	out := s.OutputTokens
	if n < 1 || out < 2 || s.PromptTokens < 1 {
		return 0
	}
	step, _ := stepTime(a, s, mem, hw, tp, 1, float64(n))
	budget := max(s.MaxNumBatchedTokens, 1)
	// doneAt is the step that finishes each prompt, non-decreasing as
	// prompts are taken in arrival order; started and ended count the
	// requests decoding in step j (doneAt < j ≤ doneAt + out − 1).
	doneAt := make([]int, 0, n)
	cum := []float64{0} // cum[j] = time of steps 0 … j−1
	started, ended := 0, 0
	decoding := func(j int) int {
		for started < len(doneAt) && doneAt[started] < j {
			started++
		}
		for ended < started && doneAt[ended]+out-1 < j {
			ended++
		}
		return started - ended
	}
	// The first prompt computes the shared prefix (CachedPromptTokens);
	// the others find its blocks cached.
	rem, u := s.PromptTokens, max(s.PromptTokens-s.CachedPromptTokens(), 1)
	for j := 0; len(doneAt) < n || j <= doneAt[n-1]+out-1; j++ {
		d := decoding(j)
		room, f := max(budget-d, 0), 0
		for room > 0 && len(doneAt) < n {
			take := min(room, rem)
			f, room, rem = f+take, room-take, rem-take
			if rem == 0 {
				doneAt, rem = append(doneAt, j), u
			}
		}
		cum = append(cum, cum[j]+step(float64(d), float64(f)))
	}
	var sum float64
	for _, e := range doneAt {
		sum += cum[e+out] - cum[e+1] // steps e+1 … e+out−1
	}
	return sum / float64(n) / float64(out-1)
}

// serveMaxBatch returns the most sequences one replica can hold: vLLM's
// max_num_seqs, and the KV cache at each sequence's mean occupancy
// (prompt + output/2 tokens; the scheduler preempts when it runs out), the
// cached shared prefix held once for all (its blocks are shared by
// reference count, vllm/v1/core/block_pool.py).
//
// With sliding-window layers (Memory.Layout) the sequences are counted in
// blocks of the pool (Memory.KVBlocks): each holds its context less the
// shared prefix in every full-attention group and its window in every
// sliding-window group (KVLayout.seqBlocks), the prefix's blocks of the
// full-attention groups held once.
func serveMaxBatch(s *Serving, mem *Memory) int {
	c := float64(s.CachedPromptTokens())
	if l := &mem.Layout; l.Sliding() {
		ctx := float64(s.PromptTokens) + float64(s.OutputTokens)/2
		shared := float64(l.FullGroups) * c / vllmBlockSize
		kv := int(max(float64(mem.KVBlocks)-shared, 0) / l.seqBlocks(ctx, c))
		return max(0, min(s.MaxNumSeqs, kv))
	}
	// An encoder-decoder's request holds its cross-attention blocks from
	// its first step to its last (Memory.CrossTokens).
	occ := float64(s.PromptTokens) - c + float64(s.OutputTokens)/2 + float64(mem.CrossTokens)
	kv := int(max(float64(mem.KVTokens)-c, 0) / occ)
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
