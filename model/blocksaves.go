package model

// What the Hugging Face modeling code saves for backward beyond, or short
// of, the generic block of blockActivation (Korthikanti et al., 2022,
// §4.1) with autocastSoftmax: eager attention is implementation-specific.
// Each term was derived from the modeling code and checked against
// autograd's saved tensors for one block of each family
// (data/testdata/calibration/saved/saved_tensors.py, counted with
// torch.autograd.graph.saved_tensors_hooks; TestBlockSavesFixture holds
// the model to its JSON).

// upcastSoftmaxTypes are the model_types whose eager attention computes
// the softmax in fp32 even in a 16-bit model and keeps its fp32 output and
// a 16-bit copy: Llama's eager_attention_forward (modeling_llama.py:
// softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)),
// shared by the families built from it; and GPT-NeoX, whose rotary tables
// were fp32 buffers, so the rotated query and key and the scores are fp32
// (modeling_gpt_neox.py of transformers 4.40: cos_cached/sin_cached from an
// fp32 inv_freq; its flash path says "GPT-neo-X casts query and key in
// fp32 to apply rotary embedding in full precision").
var upcastSoftmaxTypes = map[string]bool{
	"llama": true, "mistral": true, "mixtral": true, "qwen2": true, "qwen2_moe": true, "qwen3": true,
	"qwen3_moe": true, "gemma": true, "gemma2": true, "phi3": true, "olmo": true, "olmo2": true,
	"granite": true, "cohere": true, "starcoder2": true, "gpt_neox": true,
}

// scoreBytes returns the bytes eager attention keeps per score element
// (a·s·sKV·b of them) at activation bytes p:
//
//	fp32:        the softmax output, with dropout its bool mask (1 B,
//	             native_dropout) and output: 4 + drop·5
//	16-bit:      the softmax output in p, or in fp32 when it is upcast
//	             (torch.autocast's softmax is on its fp32 list,
//	             aten/src/ATen/autocast_mode.cpp; upcastSoftmaxTypes); an
//	             upcast or dropped-out output is saved again as the 16-bit
//	             input of the probabilities × V matmul; dropout adds its mask
//	OPT:         torch.max(attn_weights, finfo.min) after the mask keeps its
//	             input (modeling_opt.py OPTAttention), and attention dropout
//	             is config.attention_dropout, 0.0 for the released models
//	             (F.dropout with p = 0 returns its input: ATen/native/
//	             Dropout.cpp _dropout); in a pure fp16 model (half) the
//	             softmax is upcast — "upcast to fp32 if the weights are in
//	             fp16" (modeling_opt.py, transformers PR 17437:
//	             softmax(dtype=torch.float32).to(torch.float16)) — keeping
//	             its fp32 output and the fp16 copy the matmul with V saves
func (a *Architecture) scoreBytes(p float64, autocast, half bool) float64 {
	drop := 0.0
	if a.Dropout && a.ModelType != "opt" {
		drop = 1
	}
	var x float64
	switch {
	case p == 4:
		x = 4 + drop*5
	default:
		upcast := autocast || upcastSoftmaxTypes[a.ModelType] || half && a.ModelType == "opt"
		soft := p
		if upcast {
			soft = 4
		}
		x = soft + drop
		if upcast || drop > 0 {
			x += 2
		}
	}
	if a.ModelType == "opt" {
		if autocast {
			x += 4 // the fp32 additive mask promotes the scores
		} else {
			x += p
		}
	}
	return x
}

// implementationSaves returns what one block of w's modeling code saves
// beyond blockActivation + autocastSoftmax (negative: less), for sq query
// and sk key positions, micro-batch b, activation bytes p, tensor
// parallelism t:
//
//   - eager scores: scoreBytes less what blockActivation (p, and with
//     dropout p + 1) and autocastSoftmax (2) count
//   - activation "gelu_new" (transformers activations.py
//     NewGELUActivation: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) in
//     Python ops) keeps tanh's output, 1 + tanh and 0.5·x beside its input
//     and output: 3 more f-sized tensors in p; under autocast pow is on the
//     fp32 list, so tanh and 1 + tanh are fp32 and the product is cast
//     again for c_proj: 10 bytes per element more than a GeLU's 2
//   - activation "relu" keeps only its output, which is also the next
//     Linear's input: one f-sized tensor fewer than a GeLU
//   - ParallelResidual: the second norm's input is the block input the
//     first norm saved: one s·b·h tensor fewer (in fp32 under autocast)
//   - gpt_neox in 16-bit, eager: the rotated query and key are fp32 (see
//     upcastSoftmaxTypes) where the formula counts them in p
//   - gpt_neox under SDPA in a Hugging Face model (GPTNeoXSdpaAttention,
//     modeling_gpt_neox.py @006bd23dd0ce, the v4.42 era of the SDPA
//     benchmark): query and key are cast back to the value's dtype before
//     the kernel, so the saved query and key are the p-byte copies the
//     formula counts; but the kernel also saves the value, a permuted view
//     of query_key_value's output, which keeps that whole qd + 2·kvd wide
//     storage alive: p·(qd + kvd) more. In 16-bit the flash kernel lays its
//     output out like the query (flash_api.cpp mha_fwd: out =
//     empty_like(q)), here a contiguous (b, a, s, d) tensor made by cat and
//     .to(), so the model's attn_output.transpose(1, 2).contiguous() is a
//     copy, and the dense projection saves that copy beside the output the
//     kernel saves: p·qd more (the memory-efficient kernel, which fp32 and
//     GPUs before compute capability 8.0 get, allocates its output (b, s, a,
//     d) and saves no second copy). Counted for one block with the
//     kernel's saved tensors as torch 2.2's derivatives.yaml lists them
//     (data/testdata/calibration/saved/sdpa_saved.py: 36.6 B per s·b·h in
//     16-bit where the formula gave 34)
//   - Hugging Face's eager grouped-query attention copies K and V to every
//     query head (modeling_llama.py repeat_kv: expand then reshape) and
//     the matmuls save the copies: 2·(qd − kvd) elements per token more
//   - distilbert: dropout after the FFN only, none on the attention output
//     (modeling_distilbert.py TransformerBlock): one s·b bytes mask fewer
//   - torchvision_vit (torch.nn.MultiheadAttention): with fused attention
//     the kernel's output and the output projection's input are two
//     tensors, one s·b·qd tensor more; see mhaOutputCopy
func (w *Workload) implementationSaves(sq, sk, b, p, t float64, flash, cross, autocast bool) float64 {
	a := &w.Model
	if !a.HasShape() || cross {
		return 0
	}
	n := sq * b // tokens
	h := float64(a.Hidden)
	f := float64(a.FFN) * float64(a.ActiveExperts())
	qd := float64(a.Heads * a.EffectiveHeadDim())
	kvd := float64(a.EffectiveKVHeads() * a.EffectiveHeadDim())
	var x float64
	if !flash {
		counted := p
		if a.Dropout {
			counted += p + 1
		}
		if autocast {
			counted += 2
		}
		half := w.Precision == FP16 && p == 2 && !autocast // model.half(): pure fp16
		x += (a.scoreBytes(p, autocast, half) - counted) * float64(a.Heads) * sq * sk * b / t
		if w.Trainer != TrainerLitGPT && kvd < qd {
			x += 2 * (qd - kvd) * n * p / t
		}
	}
	if !a.GatedMLP {
		switch a.Activation {
		case "gelu_new":
			per := 3 * p
			if autocast {
				per = 12
			}
			x += per * n * f / t
		case "relu":
			x -= p * n * f / t
		}
	}
	if a.ParallelResidual {
		resid := p
		if autocast {
			resid = 4
		}
		x -= resid * n * h
	}
	switch {
	case a.ModelType != "gpt_neox":
	case !flash && p < 4 && !autocast:
		x += (4 - p) * n * (qd + kvd) / t
	case flash && w.Trainer == TrainerHF:
		x += p * n * (qd + kvd) / t
		if p < 4 {
			x += p * n * qd / t
		}
	}
	if a.ModelType == "distilbert" && a.Dropout {
		x -= n * h
	}
	if flash && w.mhaOutputCopy(p) {
		x += p * n * qd / t
	}
	return x
}

// mhaOutputCopy reports whether torch.nn.MultiheadAttention's fused
// attention output and the output projection's input are two tensors
// (ModelType "torchvision_vit": torchvision's VisionTransformer
// EncoderBlock calls self_attention(x, x, x, need_weights=False)).
// F.multi_head_attention_forward (torch/nn/functional.py, 2.0 on) works
// sequence-first: q, k, v are views of one (L, N, 3E) projection, and
// after scaled_dot_product_attention it writes attn_output.permute(2, 0,
// 1, 3).contiguous(), which copies unless the kernel's output is laid out
// (L, N, H, D) like q. The fused kernels save their output for backward
// (Dao et al., 2022, Appendix B, Algorithm 4: D = rowsum(dO ∘ O); derivatives.yaml passes
// output to _scaled_dot_product_{flash,efficient}_attention_backward),
// so the copy is one more saved tensor when
//
//	the memory-efficient kernel runs (fp32; GPUs without flash): it
//	    allocates res = at::empty({B, M, num_heads, Kv}) (attention.cu
//	    _efficient_attention_forward), batch-first
//	flash on PyTorch 2.0 and 2.1: FlashAttention 1 runs on q_t.reshape(
//	    {Nnz_q, num_heads, head_dim}) and returns attention.view({batch_size,
//	    max_seqlen_batch_q, num_heads, head_dim}).transpose(1, 2)
//	    (attention.cu _scaled_dot_product_flash_attention_cuda), batch-first
//
// From 2.2 FlashAttention 2 allocates out = at::empty_like(q_padded)
// (flash_api.cpp mha_fwd), q's own layout, and .contiguous() is a view:
// no copy in 16 bits. A 16-bit run on a GPU without flash (before
// Ampere) takes the memory-efficient kernel and would copy; the memory
// estimate does not know the GPU and counts none there.
func (w *Workload) mhaOutputCopy(p float64) bool {
	if w.Model.ModelType != "torchvision_vit" {
		return false
	}
	return p >= 4 || !w.torchAtLeast(2, 2)
}
