#!/usr/bin/python3
"""What one Hugging Face block saves for backward under SDPA
(attn_implementation="sdpa") when torch.nn.functional.scaled_dot_product_attention
dispatches to the CUDA flash kernel, and what its returned cache entry
(use_cache, the config default) keeps alive beyond that (issue 30: GPT-NeoX
under SDPA).

Run with Debian's python3-torch (CPU, 1.13):
    /usr/bin/python3 sdpa_saved.py > sdpa_saved.json

Counted as saved_tensors.py counts (torch.autograd.graph.saved_tensors_hooks,
one count per storage at its full size; the block input counted once). Pure
16-bit: torch 1.13 has no CPU fp16 kernels, so bf16 stands in (same element
size); the modeling code takes no fp16-only branch here.

The SDPA kernel. Torch 1.13 has no scaled_dot_product_attention, and on CPU
torch 2.x would run the math composite, which saves the scores. The benchmark
(torch 2.2, RTX 3080 Ti, fp16, head size 64, no mask: the models pass
attn_mask=None, is_causal=True when every attention_mask entry is 1,
modeling_attn_mask_utils _prepare_4d_causal_attention_mask_for_sdpa /
_ignore_causal_mask_sdpa) dispatches to the flash kernel
(aten/src/ATen/native/transformers/cuda/sdp_utils.cpp: flash first). So the
kernel is written here as an autograd.Function that saves exactly what
torch 2.2's tools/autograd/derivatives.yaml lists for it:

  _scaled_dot_product_flash_attention: query, key, value, output,
      logsumexp (b, a, s fp32: flash_api.cpp mha_fwd softmax_lse), philox
      seed/offset (scalars), for
      _scaled_dot_product_flash_attention_backward(grad, query, key, value,
      output, logsumexp, ...)

and lays out its output as the kernel does: attention.cu
_scaled_dot_product_flash_attention_cuda passes query.transpose(1, 2) to
mha_fwd, which allocates out = at::empty_like(q_padded), q_padded = q for a
head size that is a multiple of 8 (aten/src/ATen/native/transformers/cuda/
flash_attn/flash_api.cpp, FlashAttention-2, in SDPA since torch 2.2; read at
pytorch commit 03b7c19dbe22, a later version, not at the v2.2.1 tag;
empty_like preserves a dense tensor's strides), and returns
output.transpose(1, 2). The
output therefore has the query's memory layout: when the query is contiguous
(b, a, s, d) -- GPT-NeoX's, made by cat and .to() -- the model's
attn_output.transpose(1, 2).contiguous() is a copy, and the copy (the dense
projection's input) is a second s*b*h tensor beside the kernel's saved
output. The memory-efficient kernel (variant "efficient") allocates its
output (b, s, a, d) whatever the query's layout
(_efficient_attention_forward: at::empty({B, M, num_heads, Kv})) and saves a
logsumexp padded to 32 query rows; it is shown for comparison, in 16-bit
("efficient") and in fp32 ("efficient-fp32": flash takes only 16-bit
inputs, so an fp32 model gets this kernel, and GPT-NeoX's query and key are
already the value's dtype: no cast).

The blocks, operation by operation, from huggingface/transformers:
  GPT-NeoX  src/transformers/models/gpt_neox/modeling_gpt_neox.py
            @006bd23dd0ce18d54e1cf260b09b15fa943a731d (the v4.42 era: SDPA
            support, tuple cache): GPTNeoXLayer (use_parallel_residual),
            GPTNeoXSdpaAttention.forward (_attn_projections_and_rope, then
            query/key .to(value.dtype) "GPT-neo-X casts query and key in fp32
            to apply rotary embedding in full precision", SDPA,
            transpose(1, 2).contiguous(), view, dense), GPTNeoXRotaryEmbedding
            (cos_cached/sin_cached fp32 buffers from an fp32 inv_freq,
            returned as [:seq_len]), apply_rotary_pos_emb (cos[position_ids],
            q*cos + rotate_half(q)*sin), present = (key, value): the fp32
            rotated key and the value view of query_key_value's output;
            GPTNeoXMLP with hidden_act "gelu" (F.gelu)
  Llama     src/transformers/models/llama/modeling_llama.py, LlamaSdpaAttention
            of the same era (q/k/v_proj, view, transpose, rotary with
            cos/sin .to(x.dtype), repeat_kv, SDPA, transpose(1, 2).contiguous(),
            o_proj); here with 4 query heads over 2 KV heads (GQA) and
            with 4 over 4 ("llama_mha"); the cache entry is the rotated key
            and the value before repeat_kv
  GPT-2     src/transformers/models/gpt2/modeling_gpt2.py GPT2SdpaAttention
            (c_attn split, _split_heads view+permute, SDPA with dropout_p =
            attn_pdrop in training, transpose(1, 2).contiguous(), c_proj,
            resid dropout); dropout 0.1 as released

Output per block and mode: "saved" bytes (activation + input, as
saved_tensors.py), "alpha" and "beta" solved from two sequence lengths as
saved = alpha*s*b*h + beta*a*s^2*b (beta is 0: nothing quadratic is kept),
and "present_extra" the bytes the returned cache keeps that no saved tensor
shares, per token in units of h bytes ("present_per_token_h").
"""
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import saved_tensors as st  # noqa: E402

B, H, A, FFN = st.B, st.H, st.A, st.FFN
SEQS = st.SEQS
DT = torch.bfloat16  # stands for torch.float16 (see above)
VARIANT = "flash"


class CudaSDPA(torch.autograd.Function):
    """F.scaled_dot_product_attention(q, k, v, is_causal=True, dropout_p=p) as
    torch 2.2 runs it on CUDA: what the kernel's autograd node saves and the
    layout of its output. Values come from the math formula; only the
    storages matter here."""

    @staticmethod
    def forward(ctx, q, k, v, causal, p):
        b, a, s, d = q.shape
        scores = torch.matmul(q.float(), k.float().transpose(-2, -1)) * d ** -0.5
        if causal:
            scores = scores.masked_fill(torch.ones(s, s, dtype=torch.bool).triu(1), float("-inf"))
        lse = torch.logsumexp(scores, dim=-1)  # b, a, s fp32
        o = torch.matmul(torch.softmax(scores, dim=-1), v.float())
        if VARIANT == "flash":  # 16-bit only
            out_t = torch.empty_like(q.transpose(1, 2))  # mha_fwd: empty_like(q)
        else:
            out_t = torch.empty(b, s, a, d, dtype=q.dtype)  # _efficient_attention_forward
            lse = torch.empty(b, a, (s + 31) // 32 * 32, dtype=torch.float32)
        out_t.copy_(o.transpose(1, 2))
        out = out_t.transpose(1, 2)
        rng = (torch.empty((), dtype=torch.long), torch.empty((), dtype=torch.long)) if p > 0 else ()
        ctx.save_for_backward(q, k, v, out, lse, *rng)
        ctx.causal = causal
        return out

    @staticmethod
    def backward(ctx, g):
        q, k, v = ctx.saved_tensors[:3]
        with torch.enable_grad():
            qf, kf, vf = (t.detach().float().requires_grad_() for t in (q, k, v))
            s = qf.shape[-2]
            w = torch.matmul(qf, kf.transpose(-2, -1)) * qf.shape[-1] ** -0.5
            if ctx.causal:
                w = w.masked_fill(torch.ones(s, s, dtype=torch.bool).triu(1), float("-inf"))
            o = torch.matmul(torch.softmax(w, dim=-1), vf)
            gq, gk, gv = torch.autograd.grad(o, (qf, kf, vf), g.float())
        return gq.to(q.dtype), gk.to(k.dtype), gv.to(v.dtype), None, None


def sdpa(q, k, v, p=0.0):
    return CudaSDPA.apply(q, k, v, True, p)


def rope_cache_fp32(maxpos, dim):
    """GPTNeoXRotaryEmbedding._set_cos_sin_cache: fp32 buffers."""
    inv = 1.0 / (10000 ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
    t = torch.arange(maxpos, dtype=torch.int64).type_as(inv)
    emb = torch.cat((torch.outer(t, inv),) * 2, dim=-1)
    return emb.cos(), emb.sin()


def neox_sdpa(p, x, bufs):
    """GPTNeoXLayer.forward with GPTNeoXSdpaAttention (use_parallel_residual)."""
    b, s, _ = x.shape
    d = H // A
    rot = int(d * 0.25)
    hs = F.layer_norm(x, (H,), p["ln1.w"], p["ln1.b"], 1e-5)  # input_layernorm
    qkv = F.linear(hs, p["qkv.w"], p["qkv.b"]).view(b, s, A, 3 * d)
    query = qkv[..., :d].permute(0, 2, 1, 3)
    key = qkv[..., d:2 * d].permute(0, 2, 1, 3)
    value = qkv[..., 2 * d:].permute(0, 2, 1, 3)
    q_rot, q_pass, k_rot, k_pass = query[..., :rot], query[..., rot:], key[..., :rot], key[..., rot:]
    cos, sin = bufs["cos_cached"][:s], bufs["sin_cached"][:s]  # rotary_emb(value, seq_len)
    pos = torch.arange(0, s, dtype=torch.long).unsqueeze(0)  # GPTNeoXModel: position_ids
    cos, sin = cos[pos].unsqueeze(1), sin[pos].unsqueeze(1)  # apply_rotary_pos_emb
    q_embed = (q_rot * cos) + (st.rotate_half(q_rot) * sin)
    k_embed = (k_rot * cos) + (st.rotate_half(k_rot) * sin)
    query = torch.cat((q_embed, q_pass), dim=-1)
    key = torch.cat((k_embed, k_pass), dim=-1)
    present = (key, value)
    if query.dtype != value.dtype:
        query = query.to(value.dtype)
    if key.dtype != value.dtype:
        key = key.to(value.dtype)
    o = sdpa(query, key, value)
    o = o.transpose(1, 2).contiguous().view(b, s, H)
    attn_output = F.linear(o, p["o.w"], p["o.b"])
    m = F.linear(F.gelu(F.linear(F.layer_norm(x, (H,), p["ln2.w"], p["ln2.b"], 1e-5), p["fc1.w"], p["fc1.b"])),
                 p["fc2.w"], p["fc2.b"])
    return m + attn_output + x, present


def llama_sdpa(p, x, bufs, kv=st.KV):
    """LlamaDecoderLayer with LlamaSdpaAttention."""
    b, s, _ = x.shape
    d = H // A
    y = st.rmsnorm(x, p["n1"])
    q = F.linear(y, p["q.w"]).view(b, s, A, d).transpose(1, 2)
    k = F.linear(y, p["k.w"]).view(b, s, kv, d).transpose(1, 2)
    v = F.linear(y, p["v.w"]).view(b, s, kv, d).transpose(1, 2)
    cos, sin = st.rope_tables(s, d, x.dtype)  # LlamaRotaryEmbedding: .to(dtype=x.dtype)
    q = (q * cos) + (st.rotate_half(q) * sin)
    k = (k * cos) + (st.rotate_half(k) * sin)
    present = (k, v)
    k, v = st.repeat_kv(k, A // kv), st.repeat_kv(v, A // kv)
    o = sdpa(q, k, v).transpose(1, 2).contiguous().view(b, s, -1)
    a = x + F.linear(o, p["o.w"])
    y = st.rmsnorm(a, p["n2"])
    m = F.linear(F.silu(F.linear(y, p["gate.w"])) * F.linear(y, p["up.w"]), p["down.w"])
    return a + m, present


def shapes_llama_mha():
    d = H // A
    s = st.shapes_llama()
    s["k.w"], s["v.w"] = (A * d, H), (A * d, H)
    return s


def gpt2_sdpa(p, x, bufs, drop=0.1):
    """GPT2Block with GPT2SdpaAttention, dropout as released (0.1)."""
    b, s, _ = x.shape
    y = F.layer_norm(x, (H,), p["ln1.w"], p["ln1.b"], 1e-5)
    q, k, v = (st.heads(t) for t in st.conv1d(y, p["attn.w"], p["attn.b"]).split(H, dim=2))
    present = (k, v)
    o = sdpa(q, k, v, drop).transpose(1, 2).contiguous().view(b, s, H)
    a = st.dropout(st.conv1d(o, p["proj.w"], p["proj.b"]), drop) + x
    y = F.layer_norm(a, (H,), p["ln2.w"], p["ln2.b"], 1e-5)
    m = st.dropout(st.conv1d(st.gelu_new(st.conv1d(y, p["fc.w"], p["fc.b"])), p["fcp.w"], p["fcp.b"]), drop)
    return a + m, present


BLOCKS = {
    "gpt_neox": (st.shapes_neox, neox_sdpa),
    "llama_gqa": (st.shapes_llama, llama_sdpa),
    "llama_mha": (shapes_llama_mha, lambda p, x, bufs: llama_sdpa(p, x, bufs, kv=A)),
    "gpt2": (st.shapes_gpt2, gpt2_sdpa),
}


def measure(name, s):
    torch.manual_seed(0)
    shape_fn, block = BLOCKS[name]
    p = st.params(shape_fn(), DT)
    for n in p:
        if n in ("ln1.w", "ln2.w", "n1", "n2"):
            with torch.no_grad():
                p[n].fill_(1)
    cos, sin = rope_cache_fp32(128, int((H // A) * 0.25))
    bufs = {"cos_cached": cos, "sin_cached": sin}
    x = torch.randn(B, s, H, dtype=DT, requires_grad=True)
    param_ptrs = {t.storage().data_ptr() for t in list(p.values()) + list(bufs.values())}
    saved = {}

    def pack(t):
        saved.setdefault(st.storage_key(t), (str(t.dtype), tuple(t.shape)))
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out, present = block(p, x, bufs)
    kinds = {"input": 0, "params": 0, "activation": 0}
    tensors = []
    for (ptr, nbytes), (dtype, shape) in saved.items():
        if ptr == x.storage().data_ptr():
            kinds["input"] += nbytes
        elif ptr in param_ptrs:
            kinds["params"] += nbytes
        else:
            kinds["activation"] += nbytes
            tensors.append({"dtype": dtype, "shape": list(shape), "storage_bytes": nbytes})
    saved_ptrs = {ptr for ptr, _ in saved}
    extra = 0
    for ptr, nbytes in {st.storage_key(t) for t in present}:
        if ptr not in saved_ptrs:
            extra += nbytes
    out.float().sum().backward()  # the graph is a valid training step
    return kinds, extra, sorted(tensors, key=lambda t: -t["storage_bytes"])


def main():
    global VARIANT, DT
    out = {"torch": torch.__version__, "batch": B, "hidden": H, "heads": A, "ffn": FFN, "kv_heads": st.KV,
           "seq_lens": list(SEQS), "dtype": "flash, efficient: bf16 standing for fp16; efficient-fp32: fp32",
           "note": "per block: saved = activation+input bytes = alpha*s*b*h + beta*a*s^2*b; present_extra: bytes "
                   "the returned cache keeps that no saved tensor shares; present_per_token_h = present_extra/(s*b*h)",
           "blocks": {}}
    for variant, dt in (("flash", torch.bfloat16), ("efficient", torch.bfloat16), ("efficient-fp32", torch.float32)):
        VARIANT, DT = variant, dt
        for name in BLOCKS:
            runs = {s: measure(name, s) for s in SEQS}
            y = [runs[s][0]["activation"] + runs[s][0]["input"] for s in SEQS]
            (s1, s2) = SEQS
            m = [[s1 * B * H, A * s1 * s1 * B], [s2 * B * H, A * s2 * s2 * B]]
            det = m[0][0] * m[1][1] - m[0][1] * m[1][0]
            alpha = (y[0] * m[1][1] - m[0][1] * y[1]) / det
            beta = (m[0][0] * y[1] - m[1][0] * y[0]) / det
            out["blocks"].setdefault(name, {})[variant] = {
                "by_seq": {str(s): {"kinds": runs[s][0], "present_extra": runs[s][1]} for s in SEQS},
                "alpha": round(alpha, 4), "beta": round(beta, 4),
                "present_per_token_h": round(runs[s2][1] / (s2 * B * H), 4),
                "saved_tensors_s%d" % s2: runs[s2][2],
            }
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
