"""What peft's prepare_model_for_kbit_training leaves in the forward of a
Llama-shaped QLoRA model, measured with saved_tensors_hooks on CPU.

peft src/peft/utils/other.py prepare_model_for_kbit_training (lines 204-209
at 5d602fdbf): "cast all non INT8 parameters to fp32": every fp16/bf16
parameter whose class is not Params4bit becomes fp32 (embed_tokens, the norms,
an unquantized lm_head). The block below copies the dtype flow of
transformers' LlamaRMSNorm.forward (hidden_states.to(torch.float32) ...
return self.weight * hidden_states.to(input_dtype)) and of bitsandbytes'
Linear4bit.forward (x.to(self.compute_dtype) before matmul_4bit, the output
cast back with .to(inp_dtype)); the frozen 4-bit weight stands as a bf16
tensor (MatMul4Bit dequantizes to it). LoRA A/B are fp32 (peft's
autocast_adapter_dtype). Run: /usr/bin/python3 kbit_fp32.py > kbit_fp32.json
"""
import json
import torch

torch.manual_seed(0)
V, H, F, R, S = 64, 32, 64, 4, 8


class RMSNorm(torch.nn.Module):  # transformers LlamaRMSNorm.forward
    def __init__(self, dtype):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(H, dtype=dtype), requires_grad=False)

    def forward(self, x):
        input_dtype = x.dtype
        x = x.to(torch.float32)
        var = x.pow(2).mean(-1, keepdim=True)
        x = x * torch.rsqrt(var + 1e-6)
        return self.weight * x.to(input_dtype)


class Lin4(torch.nn.Module):  # bnb Linear4bit.forward + a peft LoRA adapter
    def __init__(self, i, o):
        super().__init__()
        self.w = torch.randn(o, i, dtype=torch.bfloat16)  # dequantized NF4, compute dtype bf16
        self.a = torch.nn.Parameter(torch.randn(R, i) * 0.01)  # fp32 adapter
        self.b = torch.nn.Parameter(torch.randn(o, R) * 0.01)

    def forward(self, x):
        inp = x.dtype
        out = torch.nn.functional.linear(x.to(torch.bfloat16), self.w).to(inp)
        return out + torch.nn.functional.linear(torch.nn.functional.linear(x.to(self.a.dtype), self.a), self.b).to(out.dtype)


class Model(torch.nn.Module):
    def __init__(self, dtype, norm_dtype):
        super().__init__()
        self.embed = torch.nn.Embedding(V, H).to(dtype).requires_grad_(False)
        self.n1, self.n2, self.nf = RMSNorm(norm_dtype), RMSNorm(norm_dtype), RMSNorm(norm_dtype)
        self.qkvo, self.up, self.down = Lin4(H, H), Lin4(H, F), Lin4(F, H)
        self.head = torch.nn.Linear(H, V, bias=False).to(dtype).requires_grad_(False)

    def forward(self, ids):
        x = self.embed(ids)
        x = x + self.qkvo(self.n1(x))
        x = x + self.down(torch.nn.functional.silu(self.up(self.n2(x))))
        return self.head(self.nf(x)), x


def run(param_dtype, autocast, norm_dtype=None):
    m = Model(param_dtype, norm_dtype or param_dtype)
    saved = []

    def pack(t):
        saved.append((str(t.dtype).replace("torch.", ""), t.numel()))
        return t

    ids = torch.randint(0, V, (1, S))
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
            logits, resid = m(ids)
    logits.float().sum().backward()
    by = {}
    for dt, n in saved:
        if n >= S * H:  # activations only (no scalars, no rms per-token stats)
            by[dt] = by.get(dt, 0) + n
    return {"non_quantized_params": str(m.embed.weight.dtype).replace("torch.", ""),
            "norm_weights": str(m.n1.weight.dtype).replace("torch.", ""),
            "norm_output": str(m.n1(m.embed(ids)).dtype).replace("torch.", ""),
            "autocast": autocast, "residual": str(resid.dtype).replace("torch.", ""),
            "logits": str(logits.dtype).replace("torch.", ""), "saved_elements_by_dtype": by}


out = {"torch": torch.__version__, "runs": [
    run(torch.bfloat16, False),  # no prepare_model_for_kbit_training, pure bf16
    run(torch.float32, False),   # after prepare_model_for_kbit_training (or an fp32 load), no autocast
    run(torch.float32, True),    # after it, under Trainer bf16=True (torch.autocast)
    # TRL SFTTrainer 0.8-0.21 with bf16=True: peft_module_casting_to_bf16 puts
    # embed_tokens and lm_head back to bf16 and keeps the norms fp32
    # (without autocast the bf16 lm_head refuses the fp32 norm output)
    run(torch.bfloat16, True, torch.float32),
]}
print(json.dumps(out, indent=1))
