"""Reproduces the llm_analysis column of cases*.toml (not run by the tests).

llm-analysis (github.com/cli99/llm-analysis, commit d841e40, 2024-11-13) run
offline from a checkout, through its Python API (its CLI module imports
`fire`, which is stubbed):

    PYTHONPATH=<checkout> python3 run_llm_analysis.py          # print
    PYTHONPATH=<checkout> python3 run_llm_analysis.py --write  # and update the cases

Model shapes are the suite's [[arch]] rows and the catalog's [[model]] rows
(data/catalog/models.toml), written as llm-analysis ModelConfig JSON.

Inference (LitGPT, 40 GB A100): infer(seq_len=14, num_tokens_to_generate=50)
so the KV cache holds 64 tokens as the cases cost it; the figure is
weight_memory_per_gpu + kv_cache_memory_per_gpu + the larger of its prefill
and decode activation memory.

Training: every full-parameter training case of a transformer (decoder,
encoder, ViT as an encoder of 197 tokens with its 10-class head as the
"vocabulary") in 16-bit: train(...)["estimated_peak_memory_per_gpu"], dtype
w16a16e16, with the case's micro-batch, accumulation, sequence, data- and
tensor-parallel degrees and ZeRO stage (FSDP full shard as ZeRO-3),
activation_recomputation 4 (full) when checkpointed, flash_attn as the case
runs attention, softmax_dropout when the model has dropout and attention is
eager. The optimizer as its docstring says to express one:
master_weights_dtype_bytes 4 under mixed precision (torch.autocast keeps fp32
weights), 2 in pure 16-bit; other_op_bytes the optimizer's state bytes (Adam
and AdamW 8, or 4 in pure 16-bit; 8-bit Adam 2; SGD without momentum and
Adafactor's factored moments 0). llm-analysis has no LoRA/QLoRA, no 32-bit
dtype config, no CPU offload and no CNN, so those cases have no figure.
"""
import glob
import json
import os
import re
import sys
import tempfile
import tomllib
import types

sys.modules["fire"] = types.ModuleType("fire")
from llm_analysis.analysis import infer, train  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CATALOG = os.path.join(HERE, "..", "..", "catalog", "models.toml")

SHAPES = {
    "phi-1.5": dict(num_layers=24, n_head=32, hidden_dim=2048, vocab_size=51200, ffn_embed_dim=8192),
    "stablelm-alpha-3b": dict(num_layers=16, n_head=32, hidden_dim=4096, vocab_size=50688, ffn_embed_dim=16384),
    "llama-2-7b": dict(num_layers=32, n_head=32, hidden_dim=4096, vocab_size=32000, ffn_embed_dim=11008, mlp_gated_linear_units=True),
    "llama-2-13b": dict(num_layers=40, n_head=40, hidden_dim=5120, vocab_size=32000, ffn_embed_dim=13824, mlp_gated_linear_units=True),
    "llama-2-70b": dict(num_layers=80, n_head=64, num_key_value_heads=8, hidden_dim=8192, vocab_size=32000, ffn_embed_dim=28672, mlp_gated_linear_units=True),
    "codellama-34b": dict(num_layers=48, n_head=64, num_key_value_heads=8, hidden_dim=8192, vocab_size=32000, ffn_embed_dim=22016, mlp_gated_linear_units=True),
    "falcon-40b": dict(num_layers=60, n_head=128, num_key_value_heads=8, hidden_dim=8192, vocab_size=65024, ffn_embed_dim=32768),
}

# llm-analysis GPU configs by the suite's GPU keys; training does not check
# capacity, so the memory size only picks a config.
GPUS = {"a100-80gb": "a100-sxm-80gb", "a100-40gb": "a100-sxm-40gb", "h100-sxm": "h100-sxm-80gb",
        "v100-16gb": "v100-sxm-16gb", "v100": "v100-sxm-16gb", "a10g": "a10g-pcie-24gb",
        "rtx-4090": "a10g-pcie-24gb", "rtx-3090": "a10g-pcie-24gb", "l4": "a10g-pcie-24gb", "t4": "a10g-pcie-24gb",
        "h100": "h100-sxm-80gb", "h100-pcie": "h100-pcie-80gb", "a6000": "a6000-48gb"}

UNITS = {"GB": 1e9, "GiB": 2**30, "MiB": 2**20, "MB": 1e6}


def shapes():
    """Model shapes by key: the catalog's models, then the suite's archs."""
    rows = list(tomllib.load(open(CATALOG, "rb"))["model"])
    for f in sorted(glob.glob(os.path.join(HERE, "cases*.toml"))):
        rows += tomllib.load(open(f, "rb")).get("arch", [])
    return {r["key"]: r for r in rows}


def model_json(d, a, seq):
    fam = a.get("family", "decoder")
    cfg = dict(name=a["key"], num_layers=a["layers"], n_head=a["heads"], hidden_dim=a["hidden"],
               vocab_size=a.get("vocab", 0) or 1, max_seq_len=max(seq, a.get("max_positions", 0)),
               ffn_embed_dim=a.get("ffn") or 4 * a["hidden"], mlp_gated_linear_units=bool(a.get("gated_mlp")))
    if a.get("kv_heads"):
        cfg["num_key_value_heads"] = a["kv_heads"]
    p = os.path.join(d, a["key"] + ".json")
    with open(p, "w") as f:
        json.dump(cfg, f)
    return p, fam


def training_args(c, a, d):
    """train() keyword arguments for case c, or None where llm-analysis does not apply."""
    if c["kind"] != "memory" or c["task"] not in ("train", "finetune"):
        return None
    if c.get("offload_params") or c.get("offload_optimizer"):
        return None  # llm-analysis has no CPU offload
    prec = c["precision"]
    if prec not in ("amp-bf16", "amp-fp16", "bf16", "fp16"):
        return None  # no 32-bit dtype config
    fam = a.get("family", "decoder")
    if fam not in ("decoder", "encoder", "vit"):
        return None
    mixed = prec.startswith("amp")
    opt = c.get("optimizer", "adamw")
    op = {"adam": 8, "adamw": 8, "adamw-fused": 8, "sgd": 0, "adafactor": 0, "adamw-8bit": 2, "adam-8bit": 2}.get(opt)
    if op is None:
        return None
    if not mixed and op == 8:
        op = 4  # Adam moments in the parameter dtype
    seq = c.get("seq_len") or 0
    if fam == "vit":
        seq = (c.get("image_size", 224) // a.get("patch_size", 16)) ** 2 + 1
    gpus, tp = c.get("gpus", 1), c.get("tp", 1)
    zero = {"zero1": 1, "zero2": 2, "zero3": 3, "fsdp": 3}.get(c.get("strategy", ""), 0)
    flash = c.get("flash")
    if flash is None:
        flash = c.get("torch", "2.10") >= "2"  # SDPA by default from torch 2.0
    path, _ = model_json(d, a, seq)
    ga = c.get("grad_accum", 1)
    return dict(model_name=path, gpu_name=GPUS.get(c["gpu"], "a100-sxm-80gb"), dtype_name="w16a16e16",
                batch_size_per_gpu=c["batch"], gradient_accumulation_steps=ga, seq_len=seq,
                total_num_tokens=seq * c["batch"] * ga * (gpus // tp) * 10,
                activation_recomputation=4 if c.get("checkpointing") else 0, ds_zero=zero,
                dp_size=gpus // tp, tp_size=tp, total_num_gpus=gpus, flash_attn=bool(flash),
                softmax_dropout=bool(a.get("dropout")) and not flash,
                master_weights_dtype_bytes=4 if mixed else 2, other_op_bytes=op, log_level="ERROR")


def cases():
    for f in sorted(glob.glob(os.path.join(HERE, "cases*.toml"))):
        for c in tomllib.load(open(f, "rb"))["case"]:
            yield f, c


def write(path, cid, value, comment):
    """Sets llm_analysis (with its arguments as a comment) in case cid of path."""
    text = open(path).read()
    start = text.index('id = "%s"\n' % cid)
    end = text.find("[[case]]", start)
    end = len(text) if end < 0 else end
    block = text[start:end]
    line = "llm_analysis = %s # %s\n" % (value, comment)
    if re.search(r"^llm_analysis = .*\n", block, re.M):
        block = re.sub(r"^llm_analysis = .*\n", line.replace("\\", "\\\\"), block, count=1, flags=re.M)
    else:
        block = re.sub(r"^(published = .*\n)", lambda m: m.group(1) + line, block, count=1, flags=re.M)
    open(path, "w").write(text[:start] + block + text[end:])


def main():
    d = tempfile.mkdtemp()
    for name, shape in SHAPES.items():
        with open(os.path.join(d, name + ".json"), "w") as f:
            json.dump(dict(name=name, max_seq_len=4096, **shape), f)
        for dtype in ("w16a16e16", "w4a16e16"):
            try:
                r = infer(model_name=os.path.join(d, name + ".json"), gpu_name="a100-sxm-40gb", dtype_name=dtype,
                          seq_len=14, num_tokens_to_generate=50, batch_size_per_gpu=1, log_level="ERROR")
            except AssertionError as e:  # does not fit a 40 GB A100
                print(name, dtype, "n/a:", e)
                continue
            total = r["weight_memory_per_gpu"] + r["kv_cache_memory_per_gpu"] + max(
                r["prefill_activation_memory_per_gpu"], r["decode_activation_memory_per_gpu"])
            print(name, dtype, "%.3f GB" % (total / 1e9))

    arch = shapes()
    for path, c in cases():
        a = arch.get(c.get("model"))
        if a is None:
            continue
        kw = training_args(c, a, d)
        if kw is None:
            continue
        r = train(**kw)
        v = r["estimated_peak_memory_per_gpu"] / UNITS[c["unit"]]
        v = float("%.4g" % v)
        args = {k: kw[k] for k in ("batch_size_per_gpu", "gradient_accumulation_steps", "seq_len", "activation_recomputation",
                                   "ds_zero", "dp_size", "tp_size", "flash_attn", "softmax_dropout",
                                   "master_weights_dtype_bytes", "other_op_bytes")}
        comment = "train(%s, w16a16e16, %s)" % (a["key"], ", ".join("%s=%s" % kv for kv in args.items()))
        print(c["id"], c["quantity"], c["published"], c["unit"], "llm-analysis %s" % v, comment)
        if "--write" in sys.argv:
            write(path, c["id"], v, comment)


if __name__ == "__main__":
    main()
