package serve

import (
	"math"

	"github.com/gpuplan/gpuplan/model"
)

// KVLayout is one GPU's KV cache as vLLM v1 lays it out: its layers as
// full-attention and sliding-window layers, and the KV cache groups the
// hybrid KV cache manager makes of them. Every group draws 16-token blocks
// from one pool; a block of a group holds its tokens in GroupLayers
// layers, so every block costs BlockBytes whichever group holds it.
//
// vLLM gives a layer that attends to a window a SlidingWindowSpec and the
// others a FullAttentionSpec (vllm/v1/kv_cache_interface.py); with both in
// one model get_kv_cache_groups splits the layers into groups of one spec
// and one size, group_size the fewer layers of a kind, or the more when
// they differ by less than half ("gpt-oss-20b + eagle, with 12 sw + 13
// full. We pad it to (13 sw, 13 full)"), padding the last group of a kind
// (_get_kv_cache_groups_uniform_page_size); the pool is group_size
// tensors, each shared by one layer of every group, so num_blocks =
// available // page_size // group_size (get_kv_cache_config_from_groups,
// get_num_blocks; vllm-project/vllm vllm/v1/core/kv_cache_utils.py @
// 001cabc1). gpt-oss-120b's 18 full-attention and 18 sliding-window
// layers are two groups of 18; Gemma 3 27B's 10 and 52 are one group of
// 10 and six of 10 (52 padded to 60, vLLM's "Add 8 padding layers").
// When every layer slides with one window (Mistral 7B v0.1) the spec is
// uniform: one group of every layer. A sliding-window group frees a
// request's blocks that fall out of the window
// (vllm/v1/core/single_type_kv_cache_manager.py SlidingWindowManager,
// get_num_skipped_tokens: num_computed_tokens − sliding_window + 1).
//
// vLLM runs the hybrid manager by default on CUDA
// (SchedulerConfig.disable_hybrid_kv_cache_manager None resolves to
// enabled in VllmConfig.__post_init__, vllm/config/vllm.py @ 000fc94b),
// turning it off for a KV connector that does not support it and for
// chunked local attention (Llama 4: "There is a latency regression when
// using chunked local attention with the hybrid KV cache manager.
// Disabling it, by default."), whose layers then count as full attention
// (unify_hybrid_kv_cache_specs); gpuplan plans that default, so Llama 4's
// chunked layers are not modelled (the catalog gives it no window).
//
// A model without sliding-window layers is one group of all its layers,
// the layout vLLM gives it.
type KVLayout struct {
	// LayerBytesPerToken is one layer's K and V of one token on this GPU,
	// AttentionSpec.page_size_bytes ÷ block_size: 2 × KV heads on the GPU
	// × head_dim × dtype bytes (multi-head latent attention: one latent
	// of kv_lora_rank + the rotary key, KVBytesPerToken).
	LayerBytesPerToken float64
	// FullLayers and SlidingLayers are the full-attention and
	// sliding-window layers on this GPU: the model's over the pipeline's
	// stages, rounded up (the largest stage).
	FullLayers, SlidingLayers int
	// Window is the tokens a sliding-window layer attends to
	// (Architecture.SlidingWindow); 0 without sliding-window layers.
	Window int
	// GroupLayers are the layers one block spans on this GPU (vLLM's
	// group_size, rounded up over the pipeline's stages); FullGroups and
	// SlidingGroups the groups of each kind.
	GroupLayers, FullGroups, SlidingGroups int
}

// kvLayout returns the KV cache layout of a on one GPU of a tp × pp
// replica at elem bytes a KV cache element (kvElementBytes; see
// KVLayout).
func kvLayout(a *model.Architecture, elem float64, tp, pp int) KVLayout {
	l := KVLayout{LayerBytesPerToken: layerKVBytesPerToken(a, elem, tp)}
	pp = max(pp, 1)
	sliding, w := slidingLayers(a)
	if sliding > 0 {
		l.Window = int(w)
	}
	full := decoderLayers(a) - sliding
	size, fg, sg := hybridGroups(full, sliding)
	perStage := func(n int) int { return (n + pp - 1) / pp }
	l.FullLayers, l.SlidingLayers = perStage(full), perStage(sliding)
	l.GroupLayers, l.FullGroups, l.SlidingGroups = perStage(size), fg, sg
	return l
}

// hybridGroups returns vLLM's KV cache groups of full full-attention and
// sliding sliding-window layers: the layers per group and the groups of
// each kind (KVLayout; _get_kv_cache_groups_uniform_page_size: group_size
// = min_num_layers, or max_num_layers when max_num_layers <
// min_num_layers × 1.5; cdiv(layers, group_size) groups of a kind).
func hybridGroups(full, sliding int) (size, fullGroups, slidingGroups int) {
	switch {
	case sliding == 0:
		return full, 1, 0
	case full == 0:
		return sliding, 0, 1
	}
	lo, hi := min(full, sliding), max(full, sliding)
	size = lo
	if 2*hi < 3*lo {
		size = hi
	}
	return size, (full + size - 1) / size, (sliding + size - 1) / size
}

// Sliding reports whether l has sliding-window layers.
func (l *KVLayout) Sliding() bool { return l.SlidingLayers > 0 && l.Window > 0 }

// BlockBytes returns the bytes of one 16-token block: its tokens in the
// GroupLayers layers of a group (page_size × group_size).
func (l *KVLayout) BlockBytes() float64 {
	return vllmBlockSize * l.LayerBytesPerToken * float64(l.GroupLayers)
}

// RequestBlocks returns the blocks one request of tokens tokens holds at
// most when scheduled tokens are computed in a step: ⌈tokens ÷ 16⌉ in
// every full-attention group, and in every sliding-window group
// ⌈min(window − 1 + scheduled, tokens) ÷ 16⌉ + 1 ("we allocate KV cache
// for the last `self.sliding_window-1` computed tokens plus the newly
// scheduled tokens"; the + 1 because the window need not start at a
// block's start: SlidingWindowSpec.max_memory_usage_bytes,
// vllm/v1/kv_cache_interface.py @ 001cabc1). vLLM sums it over the groups
// for the requests of max_model_len it can hold at once and refuses to
// start below one (get_max_concurrency_for_kv_cache_config,
// _check_enough_kv_cache_memory with _max_memory_usage_bytes_from_groups),
// scheduled being max_num_batched_tokens; a decoding request computes one
// token a step.
func (l *KVLayout) RequestBlocks(tokens, scheduled int) int {
	if tokens <= 0 {
		return 0
	}
	full := cdiv(tokens, vllmBlockSize)
	if !l.Sliding() {
		return max(l.FullGroups, 1) * full
	}
	return l.FullGroups*full + l.SlidingGroups*l.slidingBlocks(tokens, scheduled)
}

// slidingBlocks returns the blocks one sliding-window group holds for a
// request of tokens tokens with scheduled tokens computed in a step
// (RequestBlocks).
func (l *KVLayout) slidingBlocks(tokens, scheduled int) int {
	held := min(int64(l.Window)-1+int64(max(scheduled, 0)), int64(tokens))
	return cdiv(int(held), vllmBlockSize) + 1
}

// seqBlocks returns the blocks one decoding sequence holds on average at
// a mean context of ctx tokens, cached of them shared with the others
// (serveMaxBatch): ctx − cached tokens in every full-attention group, and
// the window in every sliding-window group, whose prefix blocks the
// manager frees (a sliding-window group shares no prefix blocks:
// SlidingWindowManager.get_num_common_prefix_blocks returns 0).
func (l *KVLayout) seqBlocks(ctx, cached float64) float64 {
	return float64(l.FullGroups)*(ctx-cached)/vllmBlockSize + float64(l.SlidingGroups*l.slidingBlocks(int(math.Ceil(ctx)), 1))
}

// KVReadBytes returns the KV cache one decode step reads on this GPU for
// one sequence at ctx tokens of context: every token in a full-attention
// layer, the last Window in a sliding-window one (FlashAttention's
// window_size reads only the window).
func (l *KVLayout) KVReadBytes(ctx float64) float64 {
	if !l.Sliding() {
		return ctx * l.LayerBytesPerToken * float64(l.FullLayers)
	}
	return l.LayerBytesPerToken * (float64(l.FullLayers)*ctx + float64(l.SlidingLayers)*math.Min(ctx, float64(l.Window)))
}

// cdiv is ⌈a ÷ b⌉ for a ≥ 0, b > 0 (vllm.utils.math_utils.cdiv).
func cdiv(a, b int) int { return (a + b - 1) / b }
