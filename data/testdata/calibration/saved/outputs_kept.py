#!/usr/bin/python3
"""What a training step's outputs hold once backward has freed autograd's
saved tensors, for a loop that keeps them (gpuplan --outputs kept).

Run with Debian's python3-torch (CPU, 1.13):
    /usr/bin/python3 outputs_kept.py > outputs_kept.json

A plain loop, `outputs = model(**batch); loss = outputs.loss;
loss.backward(); optimizer.step()`, keeps `outputs` bound until the next
step's `model(**batch)` returns and the name is rebound (CPython frees an
object when its last reference goes). Three things are checked:

1. "held": the bytes of the distinct storages the returned cache entry
   (present = (key, value), the blocks of present_alive.py, pure bf16)
   references, per block and token in units of h: what stays alive after
   backward, when no saved tensor shares them any more. gpuplan's
   model.outputsHeld counts GPT-2 3h, GPT-NeoX 4h, other decoders 2 kvd.
2. "logits": a tied-embedding LM head under CPU autocast(bfloat16) returns
   bf16 logits (F.linear is on autocast's lower-precision list), the tensor
   `outputs.logits` holds; their storage is not one autograd saves for
   the loss (cross_entropy and sum save none of it), so a kept output
   holds s*b*v*2 bytes beyond the saved tensors.
3. "alive_at_next_forward": a weakref to step 1's logits, read inside step
   2's forward, in a plain loop (alive) and in a Trainer-style loop whose
   compute_loss returns only the loss (dead).
4. "loss_liveness": the bytes alive, per logit, around a causal LM loss
   on CPU, counted as glibc's mmapped bytes (mallinfo2().hblkhd, the
   script re-executes itself with MALLOC_MMAP_THRESHOLD_=1 MiB so every
   logit-sized tensor, and nothing smaller, is its own mapping) after
   every aten op, read from a TorchDispatchMode, so what one op allocates
   is counted while its inputs are alive. The head is F.linear over h=8
   (its weight and gradients stay under the threshold); the loss is
   Hugging Face's ForCausalLMLoss (transformers src/transformers/loss/
   loss_utils.py: logits.float(), pad the labels, view, cross_entropy)
   or cross_entropy in the logits' dtype ("native"), the logits bf16 or
   fp32, and the outputs dropped before backward (Trainer: compute_loss
   returns the loss alone) or kept. Per case: the peak during the forward
   and loss, what is alive as backward starts, the peak during backward
   and the op sequence of the backward (per-logit bytes after each op).
"""
import ctypes
import gc
import json
import os
import sys
import weakref

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import saved_tensors as st  # noqa: E402
import present_alive as pa  # noqa: E402


def held(shapes, block, s):
    torch.manual_seed(0)
    p = st.params(shapes(), st.BF16)
    maxpos = 128
    bufs = {"bias": torch.tril(torch.ones(maxpos, maxpos, dtype=torch.bool)).view(1, 1, maxpos, maxpos),
            "causal_add": torch.triu(torch.full((s, s), torch.finfo(st.BF16).min, dtype=st.BF16), 1)[None, None].expand(st.B, 1, s, s)}
    x = torch.randn(st.B, s, st.H, dtype=st.BF16, requires_grad=True)
    out, present = block(p, x, bufs)
    out.float().sum().backward()
    return sum(n for (ptr, n) in {st.storage_key(t) for t in present})


class TinyLM(torch.nn.Module):
    """Embedding, one Linear block and a tied LM head, as GPT-2's lm_head."""

    def __init__(self, v=1000, h=64):
        super().__init__()
        self.wte = torch.nn.Embedding(v, h)
        self.fc = torch.nn.Linear(h, h)
        self.seen = None  # the probe read inside forward

    def forward(self, ids, probe=None):
        if probe is not None:
            self.seen = probe() is not None
        x = torch.tanh(self.fc(self.wte(ids)))
        return {"logits": F.linear(x, self.wte.weight)}


def logits_check(b=2, s=32, v=1000):
    torch.manual_seed(0)
    m = TinyLM(v)
    ids = torch.randint(v, (b, s))
    saved = set()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        with torch.autograd.graph.saved_tensors_hooks(lambda t: saved.add(st.storage_key(t)) or t, lambda t: t):
            out = m(ids)
            loss = F.cross_entropy(out["logits"].float().flatten(0, 1), ids.flatten())
    lg = out["logits"]
    key = st.storage_key(lg)
    loss.backward()
    return {"dtype": str(lg.dtype), "bytes": lg.untyped_storage().nbytes() if hasattr(lg, "untyped_storage") else lg.storage().nbytes(),
            "per_logit": lg.element_size(), "saved_for_loss": key in saved}


def liveness(v=1000, b=2, s=16):
    torch.manual_seed(0)
    m = TinyLM(v)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    ids = torch.randint(v, (b, s))
    res = {}
    # Plain loop: outputs is a local of the loop body.
    ref = None
    for _ in range(2):
        outputs = m(ids, probe=ref)
        loss = F.cross_entropy(outputs["logits"].flatten(0, 1), ids.flatten())
        loss.backward()
        opt.step()
        opt.zero_grad()
        ref = weakref.ref(outputs["logits"])
    res["plain"] = m.seen
    del outputs, loss
    gc.collect()

    # Trainer-style: compute_loss returns only the loss.
    def compute_loss(model, probe):
        out = model(ids, probe=probe)
        compute_loss.last = weakref.ref(out["logits"])
        return F.cross_entropy(out["logits"].flatten(0, 1), ids.flatten())

    ref = None
    for _ in range(2):
        loss = compute_loss(m, ref)
        loss.backward()
        opt.step()
        opt.zero_grad()
        ref = compute_loss.last
    res["trainer"] = m.seen
    return res


MMAP_THRESHOLD = 1 << 20  # bytes; logits-sized tensors are above it, the rest below


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]


_libc = ctypes.CDLL("libc.so.6")
_libc.mallinfo2.restype = _Mallinfo2


def mapped():
    """Bytes glibc has in mmapped chunks: the live tensors above the threshold."""
    return _libc.mallinfo2().hblkhd


class Trace(TorchDispatchMode):
    """Reads mapped() after every aten op, forward and backward (CPU
    autograd runs the backward on the calling thread, inside the mode)."""

    def __init__(self):
        super().__init__()
        self.log = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        self.log.append((str(func.overloadpacket.__name__), mapped()))
        return out


def for_causal_lm_loss(logits, labels, vocab_size, ignore_index=-100):
    """transformers src/transformers/loss/loss_utils.py ForCausalLMLoss
    with fixed_cross_entropy inlined (num_items_in_batch None: mean)."""
    logits = logits.float()
    labels = F.pad(labels, (0, 1), value=ignore_index)
    shift_labels = labels[..., 1:].contiguous()
    logits = logits.view(-1, vocab_size)
    shift_labels = shift_labels.view(-1)
    return F.cross_entropy(logits, shift_labels, ignore_index=ignore_index, reduction="mean")


def loss_case(loss_impl, dtype, kept, b=2, s=64, v=8192, h=8):
    torch.manual_seed(0)
    n = b * s * v
    hidden = torch.randn(b, s, h, dtype=dtype, requires_grad=True)
    weight = torch.randn(v, h, dtype=dtype, requires_grad=True)
    labels = torch.randint(v, (b, s))
    gc.collect()
    base = mapped()
    per = lambda x: round((x - base) / n, 2)  # noqa: E731

    def compute_loss(tr):
        with tr:
            out = {"logits": F.linear(hidden, weight)}  # Linear saves its input and weight, not its output
            if loss_impl == "hf-fp32":
                loss = for_causal_lm_loss(out["logits"], labels, v)
            else:
                loss = F.cross_entropy(out["logits"].flatten(0, 1), labels.flatten())
        return loss, out

    fwd = Trace()
    loss, out = compute_loss(fwd)
    if not kept:
        del out  # the Trainer: compute_loss returns the loss alone
    start = mapped()
    bwd = Trace()
    with bwd:
        loss.backward()
    res = {"forward_peak": per(max(m for _, m in fwd.log)), "backward_start": per(start),
           "backward_peak": per(max(m for _, m in bwd.log)),
           "backward_ops": [[op, per(m)] for op, m in bwd.log if op != "detach"]}
    del loss
    return res


def loss_liveness():
    res = {"note": "bytes per logit alive (mmapped tensors >= 1 MiB, i.e. logit-sized), after each aten op; b=2 s=64 v=8192, head F.linear over h=8"}
    for loss_impl in ("hf-fp32", "native"):
        for dt in (torch.bfloat16, torch.float32):
            for kept in (False, True):
                key = "%s %s %s" % (loss_impl, str(dt).replace("torch.", ""), "kept" if kept else "dropped")
                res[key] = loss_case(loss_impl, dt, kept)
    return res


def main():
    res = {"torch": torch.__version__, "batch": st.B, "hidden": st.H, "heads": st.A, "kv_heads": st.KV,
           "note": "held: bytes of the storages the returned present references after backward, per block, pure bf16; per_token_h = held / (s*b*h) / 2 bytes",
           "blocks": {}}
    for name, shapes, block in (("gpt2", st.shapes_gpt2, pa.gpt2_present), ("gpt_neox", st.shapes_neox, pa.neox_present),
                                ("opt", st.shapes_opt, pa.opt_present), ("llama_eager", st.shapes_llama, pa.llama_present)):
        res["blocks"][name] = {str(s): {"held": e, "per_token_h": e / (s * st.B * st.H) / 2}
                               for s in st.SEQS for e in [held(shapes, block, s)]}
    res["logits"] = logits_check()
    res["alive_at_next_forward"] = liveness()
    res["loss_liveness"] = loss_liveness()
    json.dump(res, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    if os.environ.get("MALLOC_MMAP_THRESHOLD_") != str(MMAP_THRESHOLD):
        # glibc reads the fixed threshold (which also stops its dynamic
        # raising) at start-up: run again with it set.
        os.execve(sys.executable, [sys.executable] + sys.argv, dict(os.environ, MALLOC_MMAP_THRESHOLD_=str(MMAP_THRESHOLD)))
    main()
