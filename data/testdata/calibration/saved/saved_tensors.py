#!/usr/bin/python3
"""Count exactly what autograd saves for backward in one transformer block,
written as the Hugging Face modeling code writes it (issue 30, item 7).

Run with Debian's python3-torch (CPU, 1.13):  /usr/bin/python3 saved_tensors.py > saved_tensors.json

How it counts. torch.autograd.graph.saved_tensors_hooks calls pack_hook on
every tensor an autograd node saves for backward during forward. Each saved
tensor is attributed to its storage (views of one tensor share it) and a
storage counts once, at its full size: what the caching allocator must keep
alive. Storages are sorted into
  input        the block's input (saved by its first norm or projection);
               the previous block's output, counted here once per block
  params       parameters and buffers (weights, causal-mask buffers)
  weight_cast  autocast's cached 16-bit copies of the weights (cached_cast
               reuses a cast of an fp32 leaf that requires grad,
               aten/src/ATen/autocast_mode.cpp), the "cast cache"
  activation   everything else
Each block runs at two sequence lengths (s = 32, 64; batch 2, hidden 64,
4 heads, MLP 256) and the activation bytes (input included) are solved as
    bytes = alpha * s*b*h + beta * a*s^2*b
Korthikanti et al. (2022, §4.1) write a block as s*b*h*(34 + 5*a*s/h) in
16-bit with dropout: alpha 34 and beta 5 in their units.

Precisions:
  fp32          fp32 weights and activations
  autocast-bf16 fp32 weights, torch.autocast(bfloat16) as it behaves on CUDA.
                CPU autocast uses other op lists (its softmax runs in bf16),
                so the CUDA lists of aten/src/ATen/autocast_mode.cpp are
                applied by a TorchFunctionMode instead: linear, matmul, bmm,
                baddbmm, addmm to bf16 (weights through a cast cache);
                layer_norm, pow, rsqrt to fp32; softmax with no dtype given
                to fp32 (fp32_set_opt_dtype); everything else in its input's
                dtype.
  bf16          pure bf16 weights and activations (model.to(bfloat16);
                HF from_pretrained(torch_dtype=...) for float16 saves the same
                bytes)
  fp16          pure fp16 (model.half()): the code's `dtype == torch.float16`
                branches taken (OPT's softmax upcast). Torch 1.13 has no CPU
                fp16 kernels (addmm, bmm, layer_norm: "not implemented for
                'Half'"), so the block runs in bf16, the same element size,
                with HALF standing for torch.float16 in those branches.
Dropout with p > 0 goes through torch.native_dropout, the fused kernel CUDA
runs (at::dropout takes it when is_fused_kernel_acceptable: a CUDA tensor,
0 < p < 1), which saves a 1-byte bool mask; the CPU path would save a mask in
the input's dtype. p = 0 saves nothing (at::dropout returns its input).

One artefact of torch 1.13: its mean.dim saves its input for backward, so
LlamaRMSNorm's variance (x.pow(2).mean(-1)) keeps the fp32 square, 4 bytes
per element per norm. PyTorch 2.x saves only sizes (tools/autograd/
derivatives.yaml, mean.dim: mean_backward(grad, self.sym_sizes(), dim,
self.sym_numel(), keepdim)), so on the stacks the suite measured a Llama
block keeps 8 bytes per s*b*h less than alpha below: "torch2_alpha".

What this cannot show: CUDA-only kernels (flash and memory-efficient SDPA,
which save q, k, v, the output and a logsumexp of a*s*b fp32: Dao et al.,
2022, §3.1; aten/src/ATen/native/transformers/cuda/attention.cu), cuBLAS
workspaces, and the caching allocator (block rounding to 512 B, 2 MiB
segments, fragmentation: c10/cuda/CUDACachingAllocator.cpp). Those rest on
published readings (the calibration suite's reserved and nvidia-smi cases).

The blocks follow, operation by operation (not copied), the modeling files of
huggingface/transformers at these commits (read with the code search tool):
  BERT        src/transformers/models/bert/modeling_bert.py @8ec58104181b
              (BertSelfAttention eager, post-LN, dropout 0.1, F.gelu)
  GPT-2       src/transformers/models/gpt2/modeling_gpt2.py @c44b2d9976e8
              (Conv1D = addmm, _attn: matmul, / full([]) scale, where with
              the causal bias buffer, softmax, .type(v.dtype), dropout;
              gelu_new = NewGELUActivation, a tanh formula in Python ops)
  GPT-NeoX    src/transformers/models/gpt_neox/modeling_gpt_neox.py, the
              v4.40-era eager code (parallel residual, fused query_key_value,
              rotary on rotary_pct = 0.25 of each head with fp32 cos/sin
              caches, baddbmm into zeros of the query's dtype, where,
              softmax, .to(value.dtype)); "rope_cast" is the v4.45+ code,
              whose rotary returns cos/sin in the input's dtype
  Llama       src/transformers/models/llama/modeling_llama.py @5dd4a6354885
              (LlamaRMSNorm upcast, rotary cos/sin .to(x.dtype), repeat_kv,
              eager_attention_forward: softmax(dtype=float32).to(q.dtype);
              gated SiLU MLP); "math SDPA" is the composite
              _scaled_dot_product_attention_math of PyTorch 2.x
              (aten/src/ATen/native/transformers/attention.cpp: q and k^T
              each scaled by sqrt(scale), matmul, softmax, matmul), which HF's
              sdpa_attention_forward reaches when no fused kernel applies
  OPT         src/transformers/models/opt/modeling_opt.py @ab910744d640
              (q_proj * scaling, bmm, + mask, torch.max with finfo.min,
              softmax (fp32 for fp16), dropout, bmm; post-LN for 350m;
              fc1 ReLU fc2, dropout 0.1; attention_dropout 0.0)
  DistilBERT  src/transformers/models/distilbert/modeling_distilbert.py
              @e368c1a8819d (q / sqrt(d), matmul, masked_fill with the
              expanded padding mask, softmax, dropout 0.1, matmul; post-LN;
              FFN lin1 gelu lin2 dropout)
  ViT         src/transformers/models/vit/modeling_vit.py @d8b2b23c6ed1
              (pre-LN, BERT-style self-attention, dropouts 0.0 by default)
"""

import json
import math
import sys

import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

B, H, A, FFN = 2, 64, 4, 256
SEQS = (32, 64)
BF16 = torch.bfloat16
HALF = torch.float16  # the dtype the modeling code's fp16 branches test; bf16 in mode "fp16"


# ---------------------------------------------------------------- autocast as on CUDA

LOWER = {F.linear, torch.matmul, torch.Tensor.matmul, torch.Tensor.__matmul__, torch.bmm,
         torch.Tensor.bmm, torch.baddbmm, torch.addmm}
FP32 = {F.layer_norm, torch.pow, torch.Tensor.pow, torch.rsqrt, torch.Tensor.rsqrt}
SOFTMAX = {F.softmax, torch.softmax, torch.Tensor.softmax}


class CudaAutocast(TorchFunctionMode):
    """torch.autocast(device_type="cuda", dtype=bfloat16) op lists on CPU."""

    def __init__(self, params=()):
        super().__init__()
        self.cache = {}  # cached_cast: fp32 leaf requiring grad -> its bf16 copy
        # Only the weights are such leaves in a real model; the block's input
        # here is a leaf too but stands for the previous block's output.
        self.leaves = {id(t) for t in params}

    def cast(self, t, dtype):
        if not isinstance(t, torch.Tensor) or not t.is_floating_point() or t.dtype == dtype:
            return t
        if id(t) in self.leaves and t.requires_grad and dtype == BF16:
            if id(t) not in self.cache:
                self.cache[id(t)] = t.to(dtype)
            return self.cache[id(t)]
        return t.to(dtype)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if func in LOWER:
            args = tuple(self.cast(a, BF16) for a in args)
        elif func in FP32:
            args = tuple(self.cast(a, torch.float32) for a in args)
        elif func in SOFTMAX and kwargs.get("dtype") is None and args[0].dtype != torch.float32:
            kwargs["dtype"] = torch.float32
        return func(*args, **kwargs)


def dropout(x, p, training=True):
    """nn.Dropout as CUDA runs it: native_dropout (bool mask) for 0 < p < 1."""
    if not training or p == 0:
        return x
    return torch.native_dropout(x, p, True)[0]


def lin(x, w, bias=None):
    return F.linear(x, w, bias)


# ---------------------------------------------------------------- blocks

def params(shapes, dtype):
    g = torch.Generator().manual_seed(0)
    return {k: (torch.randn(*s, generator=g) * 0.02).to(dtype).requires_grad_() for k, s in shapes.items()}


def ln_params(p, name):
    return {name + ".w": (H,), name + ".b": (H,)}


def shapes_bert():
    s = {}
    for n in ("q", "k", "v", "o"):
        s[n + ".w"], s[n + ".b"] = (H, H), (H,)
    s["fc1.w"], s["fc1.b"], s["fc2.w"], s["fc2.b"] = (FFN, H), (FFN,), (H, FFN), (H,)
    s.update(ln_params(s, "ln1"))
    s.update(ln_params(s, "ln2"))
    return s


def heads(x, n=A):
    b, s, _ = x.shape
    return x.view(b, s, n, -1).transpose(1, 2)


def merge(x):
    b, n, s, d = x.shape
    return x.transpose(1, 2).contiguous().view(b, s, n * d)


def bert(p, x, bufs, drop=0.1):
    """BertLayer: BertSelfAttention (eager), BertSelfOutput, BertIntermediate, BertOutput."""
    d = H // A
    q, k, v = (heads(lin(x, p[n + ".w"], p[n + ".b"])) for n in "qkv")
    scores = torch.matmul(q, k.transpose(-1, -2))
    scores = scores / math.sqrt(d)
    scores = scores + bufs["ext_mask"]  # get_extended_attention_mask: (1 - mask) * finfo.min, model dtype
    probs = F.softmax(scores, dim=-1)
    probs = dropout(probs, drop)
    ctx = merge(torch.matmul(probs, v))
    a = dropout(lin(ctx, p["o.w"], p["o.b"]), drop)
    a = F.layer_norm(a + x, (H,), p["ln1.w"], p["ln1.b"], 1e-12)
    m = F.gelu(lin(a, p["fc1.w"], p["fc1.b"]))
    m = dropout(lin(m, p["fc2.w"], p["fc2.b"]), drop)
    return F.layer_norm(m + a, (H,), p["ln2.w"], p["ln2.b"], 1e-12)


def distilbert(p, x, bufs, drop=0.1):
    """TransformerBlock: MultiHeadSelfAttention (masked_fill), post-LN, FFN."""
    d = H // A
    q, k, v = (heads(lin(x, p[n + ".w"], p[n + ".b"])) for n in "qkv")
    q = q / math.sqrt(d)
    scores = torch.matmul(q, k.transpose(2, 3))
    mask = (bufs["pad_mask"] == 0).view(x.shape[0], 1, 1, x.shape[1]).expand_as(scores)
    scores = scores.masked_fill(mask, -float("inf"))
    w = dropout(F.softmax(scores, dim=-1), drop)
    ctx = lin(merge(torch.matmul(w, v)), p["o.w"], p["o.b"])
    sa = F.layer_norm(ctx + x, (H,), p["ln1.w"], p["ln1.b"], 1e-12)
    m = dropout(lin(F.gelu(lin(sa, p["fc1.w"], p["fc1.b"])), p["fc2.w"], p["fc2.b"]), drop)
    return F.layer_norm(m + sa, (H,), p["ln2.w"], p["ln2.b"], 1e-12)


def vit(p, x, bufs, drop=0.0):
    """ViTLayer: layernorm_before, ViTSelfAttention, ViTSelfOutput, layernorm_after, MLP."""
    d = H // A
    y = F.layer_norm(x, (H,), p["ln1.w"], p["ln1.b"], 1e-12)
    q, k, v = (heads(lin(y, p[n + ".w"], p[n + ".b"])) for n in "qkv")
    scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(d)
    probs = dropout(F.softmax(scores, dim=-1), drop)
    a = dropout(lin(merge(torch.matmul(probs, v)), p["o.w"], p["o.b"]), drop) + x
    y = F.layer_norm(a, (H,), p["ln2.w"], p["ln2.b"], 1e-12)
    m = dropout(lin(F.gelu(lin(y, p["fc1.w"], p["fc1.b"])), p["fc2.w"], p["fc2.b"]), drop)
    return m + a


def opt(p, x, bufs, drop=0.1, attn_drop=0.0):
    """OPTDecoderLayer with do_layer_norm_before false (opt-350m)."""
    b, s, _ = x.shape
    d = H // A
    q = lin(x, p["q.w"], p["q.b"]) * (d ** -0.5)
    k, v = (heads(lin(x, p[n + ".w"], p[n + ".b"])).contiguous().view(b * A, -1, d) for n in "kv")
    q = heads(q).contiguous().view(b * A, -1, d)
    w = torch.bmm(q, k.transpose(1, 2))
    w = w.view(b, A, s, s) + bufs["causal_add"]
    w = torch.max(w, torch.tensor(torch.finfo(w.dtype).min))
    w = w.view(b * A, s, s)
    if w.dtype == HALF:
        w = F.softmax(w, dim=-1, dtype=torch.float32).to(HALF)
    else:
        w = F.softmax(w, dim=-1)
    w = dropout(w, attn_drop)
    o = torch.bmm(w, v).view(b, A, s, d).transpose(1, 2).reshape(b, s, H)
    o = dropout(lin(o, p["o.w"], p["o.b"]), drop)
    hs = F.layer_norm(x + o, (H,), p["ln1.w"], p["ln1.b"])
    shape = hs.shape
    hs = hs.reshape(-1, H)
    m = dropout(lin(F.relu(lin(hs, p["fc1.w"], p["fc1.b"])), p["fc2.w"], p["fc2.b"]), drop)
    return F.layer_norm((hs + m).view(shape), (H,), p["ln2.w"], p["ln2.b"])


def shapes_gpt2():
    return {"ln1.w": (H,), "ln1.b": (H,), "attn.w": (H, 3 * H), "attn.b": (3 * H,), "proj.w": (H, H), "proj.b": (H,),
            "ln2.w": (H,), "ln2.b": (H,), "fc.w": (H, FFN), "fc.b": (FFN,), "fcp.w": (FFN, H), "fcp.b": (H,)}


def conv1d(x, w, bias):
    """transformers pytorch_utils.Conv1D: addmm(bias, x.view(-1, nx), weight)."""
    out = torch.addmm(bias, x.view(-1, x.size(-1)), w)
    return out.view(x.size()[:-1] + (w.size(-1),))


def gelu_new(x):
    """activations.NewGELUActivation, in Python ops."""
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


def gpt2(p, x, bufs, drop=0.1):
    """GPT2Block with GPT2Attention._attn (eager)."""
    s = x.shape[1]
    y = F.layer_norm(x, (H,), p["ln1.w"], p["ln1.b"], 1e-5)
    q, k, v = (heads(t) for t in conv1d(y, p["attn.w"], p["attn.b"]).split(H, dim=2))
    w = torch.matmul(q, k.transpose(-1, -2))
    w = w / torch.full([], v.size(-1) ** 0.5, dtype=w.dtype)
    causal = bufs["bias"][:, :, :s, :s]
    w = torch.where(causal, w.to(w.dtype), torch.full([], torch.finfo(w.dtype).min, dtype=w.dtype))
    w = F.softmax(w, dim=-1)
    w = w.type(v.dtype)
    w = dropout(w, drop)
    o = conv1d(merge(torch.matmul(w, v)), p["proj.w"], p["proj.b"])
    a = dropout(o, drop) + x
    y = F.layer_norm(a, (H,), p["ln2.w"], p["ln2.b"], 1e-5)
    m = dropout(conv1d(gelu_new(conv1d(y, p["fc.w"], p["fc.b"])), p["fcp.w"], p["fcp.b"]), drop)
    return a + m


def shapes_neox():
    return {"ln1.w": (H,), "ln1.b": (H,), "ln2.w": (H,), "ln2.b": (H,), "qkv.w": (3 * H, H), "qkv.b": (3 * H,),
            "o.w": (H, H), "o.b": (H,), "fc1.w": (FFN, H), "fc1.b": (FFN,), "fc2.w": (H, FFN), "fc2.b": (H,)}


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def rope_tables(s, dim, dtype):
    inv = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
    f = torch.outer(torch.arange(s).float(), inv)
    emb = torch.cat((f, f), dim=-1)
    return emb.cos()[None, None].to(dtype), emb.sin()[None, None].to(dtype)


def neox(p, x, bufs, rope_cast=False):
    """GPTNeoXLayer, use_parallel_residual true, eager GPTNeoXAttention._attn."""
    b, s, _ = x.shape
    d = H // A
    rot = int(d * 0.25)
    y = F.layer_norm(x, (H,), p["ln1.w"], p["ln1.b"], 1e-5)
    qkv = lin(y, p["qkv.w"], p["qkv.b"]).view(b, s, A, 3 * d)
    q, k, v = (qkv[..., i * d:(i + 1) * d].permute(0, 2, 1, 3) for i in range(3))
    cos, sin = rope_tables(s, rot, v.dtype if rope_cast else torch.float32)
    qr, kr = q[..., :rot], k[..., :rot]
    q = torch.cat(((qr * cos) + (rotate_half(qr) * sin), q[..., rot:]), dim=-1)
    k = torch.cat(((kr * cos) + (rotate_half(kr) * sin), k[..., rot:]), dim=-1)
    qf, kf = q.reshape(b * A, s, d), k.reshape(b * A, s, d)
    scores = torch.zeros(b * A, s, s, dtype=qf.dtype)
    scores = torch.baddbmm(scores, qf, kf.transpose(1, 2), beta=1.0, alpha=d ** -0.5).view(b, A, s, s)
    causal = bufs["bias"][:, :, :s, :s]
    scores = torch.where(causal, scores, torch.tensor(torch.finfo(scores.dtype).min, dtype=scores.dtype))
    w = F.softmax(scores, dim=-1).to(v.dtype)
    o = lin(merge(torch.matmul(w, v)), p["o.w"], p["o.b"])
    m = lin(F.gelu(lin(F.layer_norm(x, (H,), p["ln2.w"], p["ln2.b"], 1e-5), p["fc1.w"], p["fc1.b"])), p["fc2.w"], p["fc2.b"])
    return m + o + x


KV = 2  # GQA: 4 query heads over 2 key/value heads


def shapes_llama():
    d = H // A
    return {"n1": (H,), "n2": (H,), "q.w": (H, H), "k.w": (KV * d, H), "v.w": (KV * d, H), "o.w": (H, H),
            "gate.w": (FFN, H), "up.w": (FFN, H), "down.w": (H, FFN)}


def rmsnorm(x, w):
    dt = x.dtype
    x = x.to(torch.float32)
    var = x.pow(2).mean(-1, keepdim=True)
    x = x * torch.rsqrt(var + 1e-6)
    return w * x.to(dt)


def repeat_kv(x, n):
    b, kv, s, d = x.shape
    return x[:, :, None].expand(b, kv, n, s, d).reshape(b, kv * n, s, d)


def llama(p, x, bufs, sdpa=False):
    """LlamaDecoderLayer: eager_attention_forward, or the math SDPA composite."""
    b, s, _ = x.shape
    d = H // A
    y = rmsnorm(x, p["n1"])
    q = lin(y, p["q.w"]).view(b, s, -1, d).transpose(1, 2)
    k = lin(y, p["k.w"]).view(b, s, -1, d).transpose(1, 2)
    v = lin(y, p["v.w"]).view(b, s, -1, d).transpose(1, 2)
    cos, sin = rope_tables(s, d, x.dtype)  # LlamaRotaryEmbedding: cos.to(dtype=x.dtype), x the layer input
    q, k = (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)
    k, v = repeat_kv(k, A // KV), repeat_kv(v, A // KV)
    mask = bufs["causal_add"].to(q.dtype)
    if sdpa:
        sf = math.sqrt(d ** -0.5)
        w = torch.matmul(q * sf, k.transpose(-2, -1) * sf)
        w = w + mask
        w = F.softmax(w, dim=-1)
    else:
        w = torch.matmul(q, k.transpose(2, 3)) * d ** -0.5
        w = w + mask
        w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
    o = torch.matmul(w, v).transpose(1, 2).contiguous().reshape(b, s, -1)
    a = x + lin(o, p["o.w"])
    y = rmsnorm(a, p["n2"])
    m = lin(F.silu(lin(y, p["gate.w"])) * lin(y, p["up.w"]), p["down.w"])
    return a + m


def shapes_opt():
    s = shapes_bert()
    return s


BLOCKS = {
    "bert": (shapes_bert, bert),
    "distilbert": (shapes_bert, distilbert),
    "vit": (shapes_bert, vit),
    "opt": (shapes_opt, opt),
    "gpt2": (shapes_gpt2, gpt2),
    "gpt_neox": (shapes_neox, neox),
    "gpt_neox_rope_cast": (shapes_neox, lambda p, x, bufs: neox(p, x, bufs, rope_cast=True)),
    "llama_eager": (shapes_llama, llama),
    "llama_math_sdpa": (shapes_llama, lambda p, x, bufs: llama(p, x, bufs, sdpa=True)),
}


# ---------------------------------------------------------------- counting

def storage_key(t):
    st = t.storage()
    return st.data_ptr(), st.nbytes()


def measure(name, mode, s):
    torch.manual_seed(0)
    shape_fn, block = BLOCKS[name]
    global HALF
    HALF = BF16 if mode == "fp16" else torch.float16
    wdtype = BF16 if mode in ("bf16", "fp16") else torch.float32
    p = params(shape_fn(), wdtype)
    for n in p:  # norm weights start at 1, as the models initialise them
        if n.endswith("ln1.w") or n.endswith("ln2.w") or n in ("n1", "n2"):
            with torch.no_grad():
                p[n].fill_(1)
    maxpos = 128
    bufs = {
        "bias": torch.tril(torch.ones(maxpos, maxpos, dtype=torch.bool)).view(1, 1, maxpos, maxpos),
        "ext_mask": torch.zeros(B, 1, 1, s, dtype=wdtype),  # all tokens attended
        "pad_mask": torch.ones(B, s, dtype=torch.long),
        "causal_add": torch.triu(torch.full((s, s), torch.finfo(wdtype).min, dtype=wdtype), 1)[None, None].expand(B, 1, s, s),
    }
    x = torch.randn(B, s, H, dtype=wdtype, requires_grad=True)
    param_ptrs = {t.storage().data_ptr() for t in list(p.values()) + list(bufs.values())}
    saved = {}

    def pack(t):
        key = storage_key(t)
        saved.setdefault(key, (t.dtype, tuple(t.shape)))
        return t

    mode_ctx = CudaAutocast(p.values()) if mode == "autocast-bf16" else None
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        if mode_ctx:
            with mode_ctx:
                out = block(p, x, bufs)
        else:
            out = block(p, x, bufs)
    cast_ptrs = {c.storage().data_ptr() for c in (mode_ctx.cache.values() if mode_ctx else [])}
    out.float().sum().backward()  # the graph is a valid training step
    kinds = {"input": 0, "params": 0, "weight_cast": 0, "activation": 0}
    for (ptr, nbytes), _ in saved.items():
        if ptr == x.storage().data_ptr():
            kinds["input"] += nbytes
        elif ptr in param_ptrs:
            kinds["params"] += nbytes
        elif ptr in cast_ptrs:
            kinds["weight_cast"] += nbytes
        else:
            kinds["activation"] += nbytes
    return kinds


def main():
    out = {"torch": torch.__version__, "batch": B, "hidden": H, "heads": A, "ffn": FFN, "seq_lens": list(SEQS),
           "note": "bytes of unique storages saved for backward by one block; alpha, beta: activation+input bytes = alpha*s*b*h + beta*a*s^2*b",
           "blocks": {}}
    for name in BLOCKS:
        out["blocks"][name] = {}
        for mode in ("fp32", "autocast-bf16", "bf16", "fp16"):
            runs = {s: measure(name, mode, s) for s in SEQS}
            y = [runs[s]["activation"] + runs[s]["input"] for s in SEQS]
            # y_i = alpha*s_i*b*h + beta*a*s_i^2*b, two equations
            (s1, s2) = SEQS
            m = [[s1 * B * H, A * s1 * s1 * B], [s2 * B * H, A * s2 * s2 * B]]
            det = m[0][0] * m[1][1] - m[0][1] * m[1][0]
            alpha = (y[0] * m[1][1] - m[0][1] * y[1]) / det
            beta = (m[0][0] * y[1] - m[1][0] * y[0]) / det
            out["blocks"][name][mode] = {"by_seq": {str(s): runs[s] for s in SEQS},
                                         "alpha": round(alpha, 4), "beta": round(beta, 4)}
            if name.startswith("llama"):  # two RMSNorms: mean's saved square, 1.13 only
                out["blocks"][name][mode]["torch2_alpha"] = round(alpha - 2 * 4, 4)
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
