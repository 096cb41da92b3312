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
"""
import gc
import json
import os
import sys
import weakref

import torch
import torch.nn.functional as F

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
    json.dump(res, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
