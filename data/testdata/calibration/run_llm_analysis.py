"""Reproduces the llm_analysis column of cases.toml (not run by the tests).

llm-analysis (github.com/cli99/llm-analysis, commit d841e40, 2024-11-13) run
offline from a checkout: PYTHONPATH=<checkout> python3 run_llm_analysis.py.
Its CLI module imports `fire`, which is stubbed; the model shapes are the
suite's [[arch]] rows written as llm-analysis ModelConfig JSON. Inference:
infer(seq_len=14, num_tokens_to_generate=50) so the KV cache holds 64 tokens
as the cases cost it; the figure is weight_memory_per_gpu + kv_cache_memory_
per_gpu + the larger of its prefill and decode activation memory. Training:
train(...)["estimated_peak_memory_per_gpu"] with its mixed-precision dtype
w16a16e16 (fp32 master weights, Adam). llm-analysis has no LoRA/QLoRA, fp32
dtype, double quantization or CNN, so those cases have no figure.
"""
import json
import os
import sys
import tempfile
import types

sys.modules["fire"] = types.ModuleType("fire")
from llm_analysis.analysis import infer, train  # noqa: E402

SHAPES = {
    "phi-1.5": dict(num_layers=24, n_head=32, hidden_dim=2048, vocab_size=51200, ffn_embed_dim=8192),
    "stablelm-alpha-3b": dict(num_layers=16, n_head=32, hidden_dim=4096, vocab_size=50688, ffn_embed_dim=16384),
    "llama-2-7b": dict(num_layers=32, n_head=32, hidden_dim=4096, vocab_size=32000, ffn_embed_dim=11008, mlp_gated_linear_units=True),
    "llama-2-13b": dict(num_layers=40, n_head=40, hidden_dim=5120, vocab_size=32000, ffn_embed_dim=13824, mlp_gated_linear_units=True),
    "llama-2-70b": dict(num_layers=80, n_head=64, num_key_value_heads=8, hidden_dim=8192, vocab_size=32000, ffn_embed_dim=28672, mlp_gated_linear_units=True),
    "codellama-34b": dict(num_layers=48, n_head=64, num_key_value_heads=8, hidden_dim=8192, vocab_size=32000, ffn_embed_dim=22016, mlp_gated_linear_units=True),
    "falcon-40b": dict(num_layers=60, n_head=128, num_key_value_heads=8, hidden_dim=8192, vocab_size=65024, ffn_embed_dim=32768),
}

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

# BERT-large AMP fine-tuning (its shipped bert-large config), eager attention
# with softmax dropout; activation_recomputation 4 is full checkpointing.
for ac, mb, ga in ((0, 4, 1), (4, 1, 4)):
    r = train(model_name="bert-large", gpu_name="v100-sxm-16gb", dtype_name="w16a16e16", batch_size_per_gpu=mb,
              gradient_accumulation_steps=ga, seq_len=512, activation_recomputation=ac, flash_attn=False,
              softmax_dropout=True, total_num_tokens=512 * 512, log_level="ERROR")
    print("bert-large", "mb", mb, "ga", ga, "ckpt" if ac else "", "%.0f MiB" % (r["estimated_peak_memory_per_gpu"] / 2**20))
