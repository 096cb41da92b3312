#!/usr/bin/python3
"""What a Hugging Face block's returned cache entry (use_cache=True, the
config default, also in model.train()) keeps alive beyond what autograd
saves for backward: counted with torch.autograd.graph.saved_tensors_hooks
on the blocks of saved_tensors.py, in pure bf16.

Run with Debian's python3-torch (CPU, 1.13):
    /usr/bin/python3 present_alive.py > present_alive.json

GPT-2 (modeling_gpt2.py @c44b2d9976e8, GPT2Attention.forward): query, key
and value are split views of c_attn's one output, and `present = (key,
value)` is returned when use_cache. _attn's torch.matmul on the permuted
heads cannot fold them into bmm's batch as views, so ATen matmul reshapes
them into contiguous copies and saves the copies: c_attn's 3h-wide output
itself is saved by nothing, and only the returned present keeps it.

GPT-NeoX (the v4.40-era eager code of saved_tensors.py): the key is a new
tensor (rotary, cat) that baddbmm saves, but the value is a permuted view of
query_key_value's output, which matmul copies: the present's value keeps
that 3h-wide output alive.

OPT (modeling_opt.py @ab910744d640): key and value are made contiguous
(_shape(...).contiguous()) before the cache takes them, and bmm saves views
of the same storages: nothing extra.

Llama (modeling_llama.py @5dd4a6354885): the cache entry is the rotated key
and the value after view/transpose, before repeat_kv; the eager matmuls
save repeat_kv's expanded copies (GQA) or, with one KV head per query
head (llama_eager_mha), the tensors themselves.

Per block and token, in units of h (hidden) bytes: "extra" = bytes of the
storages the present references that no saved tensor shares.
"""
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import saved_tensors as st  # noqa: E402


def gpt2_present(p, x, bufs, drop=0.1):
    y = F.layer_norm(x, (st.H,), p["ln1.w"], p["ln1.b"], 1e-5)
    q, k, v = (st.heads(t) for t in st.conv1d(y, p["attn.w"], p["attn.b"]).split(st.H, dim=2))
    s = x.shape[1]
    w = torch.matmul(q, k.transpose(-1, -2))
    w = w / torch.full([], v.size(-1) ** 0.5, dtype=w.dtype)
    causal = bufs["bias"][:, :, :s, :s]
    w = torch.where(causal, w.to(w.dtype), torch.full([], torch.finfo(w.dtype).min, dtype=w.dtype))
    w = st.dropout(F.softmax(w, dim=-1).type(v.dtype), drop)
    o = st.conv1d(st.merge(torch.matmul(w, v)), p["proj.w"], p["proj.b"])
    a = st.dropout(o, drop) + x
    y = F.layer_norm(a, (st.H,), p["ln2.w"], p["ln2.b"], 1e-5)
    m = st.dropout(st.conv1d(st.gelu_new(st.conv1d(y, p["fc.w"], p["fc.b"])), p["fcp.w"], p["fcp.b"]), drop)
    return a + m, (k, v)


def llama_present(p, x, bufs):
    b, s, _ = x.shape
    d = st.H // st.A
    y = st.rmsnorm(x, p["n1"])
    q = st.lin(y, p["q.w"]).view(b, s, -1, d).transpose(1, 2)
    k = st.lin(y, p["k.w"]).view(b, s, -1, d).transpose(1, 2)
    v = st.lin(y, p["v.w"]).view(b, s, -1, d).transpose(1, 2)
    cos, sin = st.rope_tables(s, d, x.dtype)
    q, k = (q * cos) + (st.rotate_half(q) * sin), (k * cos) + (st.rotate_half(k) * sin)
    present = (k, v)
    k, v = st.repeat_kv(k, st.A // st.KV), st.repeat_kv(v, st.A // st.KV)
    w = torch.matmul(q, k.transpose(2, 3)) * d ** -0.5
    w = F.softmax(w + bufs["causal_add"].to(q.dtype), dim=-1, dtype=torch.float32).to(q.dtype)
    o = torch.matmul(w, v).transpose(1, 2).contiguous().reshape(b, s, -1)
    a = x + st.lin(o, p["o.w"])
    y = st.rmsnorm(a, p["n2"])
    return a + st.lin(F.silu(st.lin(y, p["gate.w"])) * st.lin(y, p["up.w"]), p["down.w"]), present


def neox_present(p, x, bufs):
    b, s, _ = x.shape
    d = st.H // st.A
    rot = int(d * 0.25)
    y = F.layer_norm(x, (st.H,), p["ln1.w"], p["ln1.b"], 1e-5)
    qkv = st.lin(y, p["qkv.w"], p["qkv.b"]).view(b, s, st.A, 3 * d)
    q, k, v = (qkv[..., i * d:(i + 1) * d].permute(0, 2, 1, 3) for i in range(3))
    cos, sin = st.rope_tables(s, rot, torch.float32)
    qr, kr = q[..., :rot], k[..., :rot]
    q = torch.cat(((qr * cos) + (st.rotate_half(qr) * sin), q[..., rot:]), dim=-1)
    k = torch.cat(((kr * cos) + (st.rotate_half(kr) * sin), k[..., rot:]), dim=-1)
    present = (k, v)
    qf, kf = q.reshape(b * st.A, s, d), k.reshape(b * st.A, s, d)
    scores = torch.zeros(b * st.A, s, s, dtype=qf.dtype)
    scores = torch.baddbmm(scores, qf, kf.transpose(1, 2), beta=1.0, alpha=d ** -0.5).view(b, st.A, s, s)
    scores = torch.where(bufs["bias"][:, :, :s, :s], scores, torch.tensor(torch.finfo(scores.dtype).min, dtype=scores.dtype))
    w = F.softmax(scores, dim=-1).to(v.dtype)
    o = st.lin(st.merge(torch.matmul(w, v)), p["o.w"], p["o.b"])
    m = st.lin(F.gelu(st.lin(F.layer_norm(x, (st.H,), p["ln2.w"], p["ln2.b"], 1e-5), p["fc1.w"], p["fc1.b"])), p["fc2.w"], p["fc2.b"])
    return m + o + x, present


def opt_present(p, x, bufs, drop=0.1):
    b, s, _ = x.shape
    d = st.H // st.A
    q = st.lin(x, p["q.w"], p["q.b"]) * (d ** -0.5)
    k4, v4 = (st.heads(st.lin(x, p[n + ".w"], p[n + ".b"])).contiguous() for n in "kv")
    present = (k4, v4)
    k, v = k4.view(b * st.A, -1, d), v4.view(b * st.A, -1, d)
    q = st.heads(q).contiguous().view(b * st.A, -1, d)
    w = torch.bmm(q, k.transpose(1, 2)).view(b, st.A, s, s) + bufs["causal_add"]
    w = F.softmax(torch.max(w, torch.tensor(torch.finfo(w.dtype).min)).view(b * st.A, s, s), dim=-1)
    o = torch.bmm(w, v).view(b, st.A, s, d).transpose(1, 2).reshape(b, s, st.H)
    o = st.dropout(st.lin(o, p["o.w"], p["o.b"]), drop)
    hs = F.layer_norm(x + o, (st.H,), p["ln1.w"], p["ln1.b"])
    m = st.dropout(st.lin(F.relu(st.lin(hs, p["fc1.w"], p["fc1.b"])), p["fc2.w"], p["fc2.b"]), drop)
    return F.layer_norm(hs + m, (st.H,), p["ln2.w"], p["ln2.b"]), present


def measure(shapes, block, s):
    torch.manual_seed(0)
    p = st.params(shapes(), st.BF16)
    maxpos = 128
    bufs = {"bias": torch.tril(torch.ones(maxpos, maxpos, dtype=torch.bool)).view(1, 1, maxpos, maxpos),
            "causal_add": torch.triu(torch.full((s, s), torch.finfo(st.BF16).min, dtype=st.BF16), 1)[None, None].expand(st.B, 1, s, s)}
    x = torch.randn(st.B, s, st.H, dtype=st.BF16, requires_grad=True)
    saved = set()
    with torch.autograd.graph.saved_tensors_hooks(lambda t: saved.add(st.storage_key(t)) or t, lambda t: t):
        out, present = block(p, x, bufs)
    kept = {st.storage_key(t) for t in present}
    extra = sum(n for (ptr, n) in kept - saved)
    out.float().sum().backward()
    return extra


def main():
    res = {"torch": torch.__version__, "batch": st.B, "hidden": st.H, "heads": st.A, "kv_heads": st.KV,
           "note": "bytes the returned present keeps alive that no saved tensor shares, per block, pure bf16; per_token_h = extra / (s*b*h) / 2 bytes",
           "blocks": {}}
    for name, shapes, block in (("gpt2", st.shapes_gpt2, gpt2_present), ("gpt_neox", st.shapes_neox, neox_present),
                                ("opt", st.shapes_opt, opt_present), ("llama_eager", st.shapes_llama, llama_present)):
        r = {}
        for s in st.SEQS:
            e = measure(shapes, block, s)
            r[str(s)] = {"extra": e, "per_token_h": e / (s * st.B * st.H) / 2}
        res["blocks"][name] = r
    st.KV = st.A  # one key/value head per query head: repeat_kv returns its input (n_rep 1)
    res["blocks"]["llama_eager_mha"] = {str(s): {"extra": e, "per_token_h": e / (s * st.B * st.H) / 2}
                                        for s in st.SEQS for e in [measure(st.shapes_llama, llama_present, s)]}
    json.dump(res, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
