"""gpuplan probe: run a few steps of the planned job and print one JSON line.

It builds the model from its configuration with random weights (nothing is
downloaded for training), applies the plan's recipe as the launch files run
it, times a few warm-up and measured steps on synthetic batches of the
planned shape, and prints the measurement as one JSON line on stdout; read
it back with `gpuplan probe compare RESULT.json` and keep it with
`gpuplan probe add RESULT.json`. For a serving plan it starts the exported
`vllm serve` command, reads vLLM's own KV-cache figures from its log and
metrics, and times a load of the planned shape against it.

    python3 gpuplan-probe.py > result.json              # one GPU, or a serving plan
    torchrun --standalone --nproc-per-node=N gpuplan-probe.py > result.json
    python3 gpuplan-probe.py --cpu-smoke                 # checks the script, not the plan
    python3 gpuplan-probe.py --plan                      # prints what it would run

--cpu-smoke swaps the model for a tiny plain-PyTorch one of the same kind
and runs every step on the CPU except the CUDA calls, so it reports no
device figures. Everything the script and the libraries it loads would
cache goes under ./.gpuplan-probe/ in the working directory (HF_HOME and
the other cache variables point there); pass --hf-home DIR to use an
existing Hugging Face cache instead. A package the plan needs and that is
missing is refused in one line (exit 2).
"""

import sys

sys.dont_write_bytecode = True  # write nothing outside the working directory, not even .pyc files

import argparse  # noqa: E402
import datetime  # noqa: E402
import gc  # noqa: E402
import importlib  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import stat  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

PLAN = json.loads("{}")  # gpuplan: the plan, one JSON string literal

SCHEMA = 1
PROBE_DIR = ".gpuplan-probe"
TOKENS_PER_CHUNK = 256  # TRL's chunked_nll: _CHUNKED_LM_HEAD_CHUNK_SIZE (trl/trainer/sft_trainer.py)
LOG_CAP = 8 << 20  # bytes of vLLM's log read back


class Refusal(Exception):
    """One line saying what is missing or wrong and how to fix it; exit 2."""


def say(msg):
    print("gpuplan probe: " + msg, file=sys.stderr, flush=True)


def need(module, pip):
    """Imports module or refuses in one line naming the pip package."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise Refusal("this plan needs the Python package %s: pip install %s, then run again" % (pip, pip))


def version_of(dist):
    try:
        from importlib import metadata
        return metadata.version(dist)
    except Exception:
        return None


def finite(x):
    """x as a JSON number, or None when it is not a finite number."""
    if x is None or isinstance(x, bool):
        return None
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


# ---------------------------------------------------------------- confinement


def probe_entry(base, name, want_dir):
    """The path of name under ./.gpuplan-probe/ and its lstat (None when missing); a
    symbolic link there, or an entry of the other kind, is refused: the script
    never writes through a link planted inside its own folder."""
    path = os.path.join(base, name)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return path, None
    ok = stat.S_ISDIR(st.st_mode) if want_dir else stat.S_ISREG(st.st_mode)
    if not ok:
        raise Refusal("./%s/%s is a symbolic link or not a plain %s; remove it, or run from another directory"
                      % (PROBE_DIR, name, "directory" if want_dir else "file"))
    return path, st


def probe_subdir(base, name):
    """./.gpuplan-probe/name as a plain directory, made with os.mkdir when missing."""
    path, st = probe_entry(base, name, True)
    if st is None:
        try:
            os.mkdir(path, 0o755)
        except FileExistsError:
            pass  # another rank of the same torchrun made it first
        probe_entry(base, name, True)
    return path


def open_fresh(base, name, mode):
    """./.gpuplan-probe/name opened for writing as a new file: an older regular file
    of that name is removed first, a link is refused, and the open itself neither
    follows a link (O_NOFOLLOW) nor reuses a file (O_EXCL)."""
    path, st = probe_entry(base, name, False)
    if st is not None:
        os.unlink(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    return os.fdopen(os.open(path, flags, 0o644), mode)


def random_checkpoint(base, key, write):
    """./.gpuplan-probe/random-checkpoint-<key>: reused when an earlier run finished it
    (its index is a plain file), otherwise written by write(dir) into a fresh private
    folder (tempfile.mkdtemp) renamed into place, so nothing the libraries save can
    follow a link planted in the folder; an unfinished one is removed first."""
    name = "random-checkpoint-" + key
    path, st = probe_entry(base, name, True)
    if st is not None:
        try:
            if stat.S_ISREG(os.lstat(os.path.join(path, "model.safetensors.index.json")).st_mode):
                return path
        except FileNotFoundError:
            pass
        shutil.rmtree(path)  # gpuplan's own, unfinished; rmtree removes links, never follows them
    staging = tempfile.mkdtemp(prefix="." + name + "-", dir=base)
    try:
        write(staging)
        os.rename(staging, path)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return path


def confine(workdir, hf_home):
    """Points every cache the libraries write at ./.gpuplan-probe/, whose top-level
    folders are checked to be plain directories, not links."""
    base = os.path.join(workdir, PROBE_DIR)
    try:
        os.mkdir(base, 0o755)
    except FileExistsError:
        pass
    if not stat.S_ISDIR(os.lstat(base).st_mode):
        # A link planted here would send the caches (and the random
        # checkpoint) wherever it points.
        raise Refusal("./%s is not a plain directory; remove it, or run from another directory" % PROBE_DIR)
    home_hf = os.environ.get("HF_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "huggingface")
    if not os.environ.get("HF_TOKEN") and not os.environ.get("HF_TOKEN_PATH"):
        os.environ["HF_TOKEN_PATH"] = os.path.join(home_hf, "token")  # read, never written
    dirs = {
        "HF_HOME": "hf", "XDG_CACHE_HOME": "cache", "TRITON_CACHE_DIR": "triton",
        "TORCHINDUCTOR_CACHE_DIR": "inductor", "TORCH_EXTENSIONS_DIR": "torch_extensions",
        "CUDA_CACHE_PATH": "nv", "VLLM_CACHE_ROOT": "vllm", "MPLCONFIGDIR": "matplotlib",
        "TMPDIR": "tmp", "NUMBA_CACHE_DIR": "numba", "PYTHONPYCACHEPREFIX": "pycache",
        "TORCH_HOME": "torch", "DS_ACCELERATOR_CACHE": "deepspeed",
    }
    for var, sub in dirs.items():
        os.environ[var] = probe_entry(base, sub, True)[0]
    if hf_home:
        os.environ["HF_HOME"] = os.path.abspath(hf_home)
    probe_subdir(base, dirs["TMPDIR"])
    tempfile.tempdir = os.environ["TMPDIR"]
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("DO_NOT_TRACK", "1")
    return base


# ---------------------------------------------------------------- device figures


def nvidia_smi(args):
    exe = shutil.which("nvidia-smi")
    if not exe:
        return None
    try:
        out = subprocess.run([exe] + args, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout


def smi_process_bytes(*pids):
    """What nvidia-smi shows as these processes' used memory, bytes, on every GPU
    (None when none is listed: no nvidia-smi, or another PID namespace)."""
    out = nvidia_smi(["--query-compute-apps=pid,used_memory", "--format=csv,noheader,nounits"])
    if out is None:
        return None
    want = {str(p) for p in pids}
    total = None
    for line in out.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == 2 and parts[0] in want and parts[1].isdigit():
            total = (total or 0) + int(parts[1]) * 1048576
    return total


def smi_driver():
    out = nvidia_smi(["--query-gpu=driver_version", "--format=csv,noheader"])
    if not out:
        return None
    first = out.splitlines()[0].strip() if out.splitlines() else ""
    return first or None


class CUDAStats:
    """The CUDA-only figures: torch's allocator, the device, the driver."""

    def __init__(self, torch, dev):
        self.torch, self.dev = torch, dev

    def sync(self):
        self.torch.cuda.synchronize()

    def allocated(self):
        return self.torch.cuda.memory_allocated()

    def reset_peak(self):
        self.torch.cuda.reset_peak_memory_stats()

    def peaks(self):
        return self.torch.cuda.max_memory_allocated(), self.torch.cuda.max_memory_reserved()

    def device(self):
        t = self.torch
        props = t.cuda.get_device_properties(t.cuda.current_device())
        return {
            "name": t.cuda.get_device_name(t.cuda.current_device()),
            "memory_bytes": int(props.total_memory),
            "compute_capability": "%d.%d" % (props.major, props.minor),
            "count": t.cuda.device_count(),
        }

    def versions(self):
        t = self.torch
        cudnn = None
        try:
            cudnn = t.backends.cudnn.version()
        except Exception:
            pass
        return {"cuda": t.version.cuda, "cudnn": str(cudnn) if cudnn else None, "driver": smi_driver()}

    def smi_used(self):
        return smi_process_bytes(os.getpid())


# ---------------------------------------------------------------- distributed


class World:
    def __init__(self, torch, smoke, strategy):
        self.torch = torch
        self.rank = int(os.environ.get("RANK", "0"))
        self.size = int(os.environ.get("WORLD_SIZE", "1"))
        self.local = int(os.environ.get("LOCAL_RANK", "0"))
        self.dist = None
        self.smoke = smoke
        if self.size > 1:
            dist = torch.distributed
            if strategy in ("zero1", "zero2", "zero3") and not smoke:
                need("deepspeed", "deepspeed").init_distributed()
            else:
                kw = {"timeout": datetime.timedelta(seconds=120)} if smoke else {}
                dist.init_process_group("gloo" if smoke else "nccl", **kw)
            self.dist = dist

    def max(self, values):
        """Elementwise maximum over ranks of a list of numbers (None as -1)."""
        if self.dist is None:
            return values
        t = self.torch.tensor([-1.0 if v is None else float(v) for v in values], dtype=self.torch.float64)
        if not self.smoke:
            t = t.cuda()
        self.dist.all_reduce(t, op=self.dist.ReduceOp.MAX)
        return [None if v < 0 else v for v in t.cpu().tolist()]

    def barrier(self):
        if self.dist is not None:
            self.dist.barrier()

    def close(self):
        if self.dist is not None:
            self.dist.destroy_process_group()


# ---------------------------------------------------------------- models


def tiny_shapes(T):
    """The smoke model's shape: the plan's kind, shrunk to run on a CPU in seconds."""
    return {
        "batch": min(T["micro_batch"], 2), "accum": min(T["grad_accum"], 2),
        "seq": min(T.get("seq_len") or 32, 32), "image": 32, "vocab": 256, "hidden": 64,
        "layers": 2, "heads": 4, "ffn": 128, "classes": 10,
    }


def tiny_model(torch, B, T, S, notes):
    """A tiny plain-PyTorch model of the plan's kind: a decoder LM with the plan's
    norm, MLP and attention kernel, or a small CNN."""
    nn, F = torch.nn, torch.nn.functional
    if B["builder"] == "torchvision":
        return nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, S["classes"]))

    sdpa = getattr(F, "scaled_dot_product_attention", None)
    if T["attention"] == "sdpa" and sdpa is None:
        notes.append("torch %s has no scaled_dot_product_attention: the smoke model attends eagerly" % torch.__version__)
    rms = B.get("norm") == "rmsnorm"
    gated = bool(B.get("gated_mlp"))

    class RMSNorm(nn.Module):
        def __init__(self, h):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(h))

        def forward(self, x):
            v = x.float().pow(2).mean(-1, keepdim=True)
            return (x.float() * torch.rsqrt(v + 1e-6)).to(x.dtype) * self.weight

    def norm(h):
        return RMSNorm(h) if rms else nn.LayerNorm(h)

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            h, f = S["hidden"], S["ffn"]
            self.heads = S["heads"]
            self.input_layernorm, self.post_attention_layernorm = norm(h), norm(h)
            self.q_proj, self.k_proj, self.v_proj, self.o_proj = (nn.Linear(h, h, bias=False) for _ in range(4))
            if gated:
                self.gate_proj = nn.Linear(h, f, bias=False)
            self.up_proj, self.down_proj = nn.Linear(h, f, bias=False), nn.Linear(f, h, bias=False)

        def attend(self, x):
            b, s, h = x.shape
            q, k, v = (p(x).view(b, s, self.heads, h // self.heads).transpose(1, 2) for p in (self.q_proj, self.k_proj, self.v_proj))
            if T["attention"] == "sdpa" and sdpa is not None:
                o = sdpa(q, k, v, is_causal=True)
            else:
                scores = (q @ k.transpose(-1, -2)) / math.sqrt(h // self.heads)
                mask = torch.ones(s, s, dtype=torch.bool, device=x.device).triu(1)
                o = torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1) @ v
            return self.o_proj(o.transpose(1, 2).reshape(b, s, h))

        def forward(self, x):
            x = x + self.attend(self.input_layernorm(x))
            y = self.post_attention_layernorm(x)
            up = self.up_proj(y)
            up = F.silu(self.gate_proj(y)) * up if gated else F.gelu(up)
            return x + self.down_proj(up)

    class TinyLM(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed_tokens = nn.Embedding(S["vocab"], S["hidden"])
            self.layers = nn.ModuleList(Block() for _ in range(S["layers"]))
            self.norm = norm(S["hidden"])
            self.lm_head = nn.Linear(S["hidden"], S["vocab"], bias=False)
            self.checkpointing = False

        def hidden(self, ids):
            x = self.embed_tokens(ids)
            for blk in self.layers:
                if self.checkpointing and self.training:
                    x = torch.utils.checkpoint.checkpoint(blk, x, use_reentrant=False)
                else:
                    x = blk(x)
            return self.norm(x)

        def forward(self, ids, return_hidden=False):
            h = self.hidden(ids)
            return h if return_hidden else self.lm_head(h)

    return TinyLM()


def tiny_lora(torch, model, L, notes):
    """PEFT's LoRA in plain PyTorch for the smoke model: frozen base, adapters on the targets."""
    nn = torch.nn

    class Adapted(nn.Module):
        def __init__(self, base):
            super().__init__()
            self.base = base
            r = min(L["r"], 4)
            self.lora_A = nn.Linear(base.in_features, r, bias=False)
            self.lora_B = nn.Linear(r, base.out_features, bias=False)
            nn.init.zeros_(self.lora_B.weight)
            self.drop = nn.Dropout(L["dropout"]) if L["dropout"] > 0 else nn.Identity()
            self.scale = L["alpha"] / r

        def forward(self, x):
            return self.base(x) + self.lora_B(self.lora_A(self.drop(x))) * self.scale

    for p in model.parameters():
        p.requires_grad_(False)
    hits = 0
    for parent in list(model.modules()):
        for name, child in list(parent.named_children()):
            if isinstance(child, nn.Linear) and name in L["targets"]:
                setattr(parent, name, Adapted(child))
                hits += 1
    if hits == 0:
        raise Refusal("none of the LoRA targets %s is a module of the model" % ", ".join(L["targets"]))
    notes.append("smoke: LoRA adapters in plain PyTorch on %d modules (PEFT on the GPU)" % hits)
    return model


def hf_dtype_kw(transformers):
    """from_config/from_pretrained take dtype= from transformers 4.56, torch_dtype= before."""
    m = re.match(r"(\d+)\.(\d+)", transformers.__version__)
    return "dtype" if m and (int(m.group(1)), int(m.group(2))) >= (4, 56) else "torch_dtype"


HF_HEADS = {
    "causal-lm": "AutoModelForCausalLM", "masked-lm": "AutoModelForMaskedLM",
    "seq-cls": "AutoModelForSequenceClassification", "seq2seq-lm": "AutoModelForSeq2SeqLM",
    "image-cls": "AutoModelForImageClassification",
}
HF_TYPES = ("llama", "mistral", "mixtral", "qwen2", "gemma2", "phi3", "gpt2", "bert", "roberta", "t5", "vit")
TORCHVISION = ("resnet18", "resnet50", "resnet101", "resnet152", "efficientnet_b0", "efficientnet_b7")


def init_tensor(torch, name, t):
    """Random weights as a fresh model has them: normal(0, 0.02) matrices, unit norms, zero biases."""
    with torch.no_grad():
        if t.dim() >= 2:
            t.normal_(0.0, 0.02)
        elif name.endswith("bias"):
            t.zero_()
        else:
            t.fill_(1.0)


def write_random_checkpoint(torch, transformers, cls, cfg, dtype, dev, path, dtype_kw):
    """A random checkpoint of the plan's shape for from_pretrained to quantize, as TRL
    loads QLoRA's base: the shapes come from a meta-device model, each tensor is drawn on
    the GPU and saved in 2 GB safetensors shards under ./.gpuplan-probe/."""
    st = need("safetensors.torch", "safetensors")
    with torch.device("meta"):
        meta = cls.from_config(cfg, **{dtype_kw: dtype})
    names, seen = [], set()
    for n, p in meta.named_parameters(remove_duplicate=False):  # tied weights are saved once
        if id(p) not in seen:
            seen.add(id(p))
            names.append((n, p))
    persistent = set(meta.state_dict().keys())
    names += [(n, b) for n, b in meta.named_buffers() if n in persistent]
    shard, size, files, weight_map, total = {}, 0, [], {}, 0

    def flush():
        nonlocal shard, size
        if shard:
            fname = "model-%05d.safetensors" % (len(files) + 1)
            st.save_file(shard, os.path.join(path, fname), metadata={"format": "pt"})
            files.append(fname)
            for k in shard:
                weight_map[k] = fname
            shard, size = {}, 0

    for n, p in names:
        t = torch.empty(p.shape, dtype=p.dtype, device=dev)
        init_tensor(torch, n, t)
        shard[n] = t.cpu()
        size += t.numel() * t.element_size()
        total += t.numel() * t.element_size()
        if size >= 2e9:
            flush()
    flush()
    cfg.save_pretrained(path)
    with open_fresh(path, "model.safetensors.index.json", "w") as f:
        json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f)
    del meta


def rope_buffers(torch, module, cfg):
    """Recomputes the rotary inverse frequencies a meta-device init leaves empty."""
    for name, buf in list(module.named_buffers(recurse=False)):
        if name in ("inv_freq", "original_inv_freq"):
            dim = buf.shape[0] * 2
            theta = float(getattr(cfg, "rope_theta", 10000.0) or 10000.0)
            vals = 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=torch.float32, device=buf.device) / dim))
            buf.copy_(vals.to(buf.dtype))
        elif "position_ids" in name:
            buf.copy_(torch.arange(buf.shape[-1], device=buf.device).expand_as(buf))
        else:
            buf.zero_()


def build_hf(torch, B, T, dev, world, run, notes):
    """The transformers model of the plan: AutoConfig.for_model with the estimate's
    shape, random weights from from_config (QLoRA: a random checkpoint quantized by
    from_pretrained, as TRL loads it), the attention kernel and dtype TRL's --dtype loads."""
    transformers = need("transformers", "transformers")
    if B["hf_model_type"] not in HF_TYPES or B["hf_head"] not in HF_HEADS:
        raise Refusal("unknown model type %r or head %r" % (B["hf_model_type"], B["hf_head"]))
    cfg = transformers.AutoConfig.for_model(B["hf_model_type"], **B["hf_config"])
    cfg.use_cache = False  # Trainer turns the KV cache off for training
    cls = getattr(transformers, HF_HEADS[B["hf_head"]])
    dtype = getattr(torch, T["load_dtype"])
    kw = {hf_dtype_kw(transformers): dtype, "attn_implementation": T["attention"]}
    run["transformers"] = transformers.__version__
    Q = T.get("qlora")
    if Q:
        need("bitsandbytes", "bitsandbytes")
        base = os.path.join(os.getcwd(), PROBE_DIR)
        path = os.path.join(base, "random-checkpoint-" + B["checkpoint_key"])
        if world.local == 0:
            def write(into):
                say("writing a random %s checkpoint to quantize under %s" % (B["hf_model_type"], path))
                write_random_checkpoint(torch, transformers, cls, cfg, dtype, dev, into, hf_dtype_kw(transformers))
            random_checkpoint(base, B["checkpoint_key"], write)
        world.barrier()
        # trl/trainer/utils.py get_quantization_config: compute dtype = --dtype.
        qc = transformers.BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=dtype,
                                             bnb_4bit_quant_type=Q["quant_type"],
                                             bnb_4bit_use_double_quant=bool(Q["double_quant"]))
        model = cls.from_pretrained(path, quantization_config=qc, device_map={"": world.local}, **kw)
        run["bitsandbytes"] = version_of("bitsandbytes")
        return model
    if T["strategy"] == "zero3":
        ds = need("deepspeed", "deepspeed")
        from transformers.integrations import HfDeepSpeedConfig
        run["_keep"] = HfDeepSpeedConfig(T["deepspeed"])  # from_config partitions under zero.Init while it lives
        run["deepspeed"] = ds.__version__
        return cls.from_config(cfg, **kw)
    if T["strategy"] == "fsdp":
        with torch.device("meta"):
            model = cls.from_config(cfg, **kw)
        run["meta_init"] = True
        run["_cfg"] = cfg
        return model
    with torch.device(dev):
        return cls.from_config(cfg, **kw)


def build_torchvision(torch, B, T, dev, notes):
    tv = need("torchvision", "torchvision")
    if B["torchvision"] not in TORCHVISION:
        raise Refusal("unknown torchvision model %r" % B["torchvision"])
    ctor = getattr(tv.models, B["torchvision"])
    try:
        model = ctor(weights=None, num_classes=B["num_classes"])
    except TypeError:  # torchvision before 0.13
        model = ctor(pretrained=False, num_classes=B["num_classes"])
    if T.get("channels_last"):
        # the plan's channels_last: PyTorch's channels_last tutorial converts
        # the model and each input batch
        return model.to(dev, memory_format=torch.channels_last), tv.__version__
    return model.to(dev), tv.__version__


def checkpoint_stages(torch, model, name):
    """Activation checkpointing of a torchvision CNN: each residual stage (ResNet
    layer1–4) or feature block (EfficientNet) recomputed in backward."""
    nn = torch.nn

    class Ckpt(nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, x):
            if self.training:
                return torch.utils.checkpoint.checkpoint(self.inner, x, use_reentrant=False)
            return self.inner(x)

    if name.startswith("resnet"):
        for s in ("layer1", "layer2", "layer3", "layer4"):
            setattr(model, s, Ckpt(getattr(model, s)))
    elif hasattr(model, "features"):
        for i in range(len(model.features)):
            model.features[i] = Ckpt(model.features[i])
    return model


# ---------------------------------------------------------------- losses


def chunked_nll(torch, hidden, weight, labels):
    """TRL's chunked_nll (trl/trainer/sft_trainer.py _chunked_cross_entropy_loss): the
    shifted tokens in chunks of 256, each chunk's fp32 logits alive only inside a
    checkpoint, summed and divided by the token count."""
    F = torch.nn.functional
    h = hidden[..., :-1, :].reshape(-1, hidden.size(-1))
    y = labels[..., 1:].reshape(-1)

    def chunk(hc, w, yc):
        logits = hc.float() @ w.float().t()
        return F.nll_loss(F.log_softmax(logits, dim=-1), yc, reduction="sum")

    loss = h.new_zeros((), dtype=torch.float32)
    for start in range(0, h.size(0), TOKENS_PER_CHUNK):
        loss = loss + torch.utils.checkpoint.checkpoint(chunk, h[start:start + TOKENS_PER_CHUNK], weight,
                                                        y[start:start + TOKENS_PER_CHUNK], use_reentrant=False)
    return loss / max(y.numel(), 1)


def lm_loss(torch, kind, logits, labels):
    """hf-fp32: transformers' ForCausalLMLoss (logits.float(), then cross_entropy);
    native: cross_entropy on the logits in their own dtype."""
    F = torch.nn.functional
    shifted = logits[..., :-1, :]
    if kind == "hf-fp32":
        shifted = shifted.float()
    return F.cross_entropy(shifted.reshape(-1, shifted.size(-1)), labels[..., 1:].reshape(-1))


def patch_chunked(torch, base):
    """Makes base's forward return TRL's chunked loss, as TRL patches it, so DDP,
    FSDP and PEFT wrappers still call through their own forward."""
    decoder = base.get_decoder()
    head = base.get_output_embeddings()

    class Out:
        pass

    def forward(input_ids=None, labels=None, **kw):
        out = decoder(input_ids=input_ids)
        hidden = out[0] if isinstance(out, (tuple, list)) else out.last_hidden_state
        o = Out()
        o.loss = chunked_nll(torch, hidden, head.weight, labels)
        return o

    base.forward = forward


# ---------------------------------------------------------------- training


def optimizer_for(torch, name, params, run):
    """The estimate's optimizer as Hugging Face Trainer builds it (--optim): torch's
    AdamW/Adam/SGD, transformers' Adafactor, bitsandbytes' AdamW8bit."""
    lr = 1e-5
    if name == "adamw":
        return torch.optim.AdamW(params, lr=lr, weight_decay=0.0)
    if name == "adam":
        return torch.optim.Adam(params, lr=lr)
    if name == "sgd":
        return torch.optim.SGD(params, lr=lr)
    if name == "sgd-momentum":
        return torch.optim.SGD(params, lr=lr, momentum=0.9)
    if name == "adafactor":
        tr = need("transformers", "transformers")
        return tr.optimization.Adafactor(params, lr=lr, scale_parameter=False, relative_step=False, warmup_init=False)
    if name == "adamw-8bit":
        bnb = need("bitsandbytes", "bitsandbytes")
        run["bitsandbytes"] = version_of("bitsandbytes")
        return bnb.optim.AdamW8bit(params, lr=lr)
    raise Refusal("unknown optimizer %r" % name)


def synthetic_batch(torch, B, T, S, dev, smoke):
    """One micro-batch of the planned shape: random token ids (labels = inputs, as
    SFT trains), or random images and class labels."""
    g = torch.Generator(device="cpu").manual_seed(0)
    b = S["batch"] if smoke else T["micro_batch"]
    if B["builder"] == "torchvision" or B.get("hf_head") == "image-cls":
        size = S["image"] if smoke else T["image_size"]
        classes = S["classes"] if smoke else B["num_classes"]
        x = torch.randn(b, 3, size, size, generator=g)
        y = torch.randint(0, classes, (b,), generator=g)
        if not smoke and T.get("channels_last"):
            x = x.contiguous(memory_format=torch.channels_last)
        if smoke or B["builder"] == "torchvision":
            return {"x": x.to(dev), "y": y.to(dev)}
        return {"pixel_values": x.to(dev), "labels": y.to(dev)}
    seq = S["seq"] if smoke else T["seq_len"]
    vocab = S["vocab"] if smoke else B["vocab"]
    ids = torch.randint(0, vocab, (b, seq), generator=g).to(dev)
    if smoke:
        return {"x": ids, "y": ids}
    head = B["hf_head"]
    if head == "seq-cls":
        return {"input_ids": ids, "labels": torch.randint(0, 2, (b,), generator=g).to(dev)}
    if head == "seq2seq-lm":
        enc = torch.randint(0, vocab, (b, T.get("encoder_seq_len") or seq), generator=g).to(dev)
        return {"input_ids": enc, "labels": ids}
    return {"input_ids": ids, "labels": ids}


def count_bytes(tensors):
    seen, total = set(), 0
    for t in tensors:
        if t is None:
            continue
        try:
            key = (t.data_ptr(), t.numel())
        except Exception:
            key = id(t)
        if key in seen:
            continue
        seen.add(key)
        total += t.numel() * t.element_size()
    return total


def optimizer_state_bytes(torch, opt):
    tensors = []
    for st in getattr(opt, "state", {}).values():
        for v in st.values():
            if torch.is_tensor(v):
                tensors.append(v)
    return count_bytes(tensors)


def train(opts):
    torch = need("torch", "torch")
    importlib.import_module("torch.utils.checkpoint")
    T, B = PLAN["train"], PLAN["build"]
    smoke = opts.cpu_smoke
    S = tiny_shapes(T)
    notes, run = [], {"builder": B["builder"], "smoke": smoke}
    world = World(torch, smoke, T["strategy"])
    if not smoke and world.size != T["gpus"]:
        raise Refusal("the plan runs on %d GPUs and this is %d process(es): start it as the launch files do, "
                      "torchrun --nproc-per-node=%d probe.py (per node), or --cpu-smoke to check the script"
                      % (T["gpus"], world.size, T["procs_per_node"]))
    stats = None
    if smoke:
        dev = torch.device("cpu")
    else:
        if not torch.cuda.is_available():
            raise Refusal("no CUDA device is visible (torch.cuda.is_available() is False): run it on the planned GPU, "
                          "or with --cpu-smoke to check the script")
        torch.cuda.set_device(world.local)
        dev = torch.device(torch.cuda.current_device())
        stats = CUDAStats(torch, dev)
        torch.empty(0, device=dev)  # creates the CUDA context
    context = stats.smi_used() if stats else None
    if T["tf32"]:
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    random.seed(0)
    torch.manual_seed(0)

    # What runs: the plan's precision, or its nearest on a CPU for the smoke model.
    autocast, load_dtype = T["autocast"], T["load_dtype"]
    if smoke and autocast == "float16":
        notes.append("smoke: CPU autocast has no float16, bfloat16 instead")
        autocast = "bfloat16"
    if smoke and load_dtype == "float16":
        notes.append("smoke: float16 weights have no CPU kernels, bfloat16 instead")
        load_dtype = "bfloat16"
    scaler_on = T["grad_scaler"] and not smoke
    base0 = stats.allocated() if stats else 0

    # The model.
    if smoke:
        model = tiny_model(torch, B, T, S, notes).to(dev)
        if load_dtype != "float32":
            model = model.to(getattr(torch, load_dtype))
        if T.get("qlora"):
            notes.append("smoke: the frozen base stays %s (bitsandbytes' 4-bit needs CUDA)" % load_dtype)
        if T.get("lora"):
            model = tiny_lora(torch, model, T["lora"], notes)
        if T["checkpointing"]:
            if B["builder"] == "torchvision":
                model = checkpoint_stages(torch, model, "smoke")
            else:
                model.checkpointing = True
        run["model"] = "tiny plain-PyTorch " + ("CNN" if B["builder"] == "torchvision" else "decoder")
    elif B["builder"] == "torchvision":
        model, run["torchvision"] = build_torchvision(torch, B, T, dev, notes)
        if load_dtype != "float32":
            model = model.to(getattr(torch, load_dtype))
        if T["checkpointing"]:
            model = checkpoint_stages(torch, model, B["torchvision"])
    else:
        model = build_hf(torch, B, T, dev, world, run, notes)
        if T.get("loss") == "chunked":
            patch_chunked(torch, model)
        if T["checkpointing"]:
            # transformers Trainer: model.gradient_checkpointing_enable(gradient_checkpointing_kwargs);
            # TRL sets use_reentrant False, and True for PEFT under ZeRO-3 (sft_trainer.py).
            reentrant = bool(T.get("lora")) and T["strategy"] == "zero3"
            try:
                model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": reentrant})
            except TypeError:
                model.gradient_checkpointing_enable()
        if T.get("lora"):
            peft = need("peft", "peft")
            run["peft"] = peft.__version__
            L = T["lora"]
            lc = peft.LoraConfig(task_type=L["task_type"], r=L["r"], target_modules=L["targets"],
                                 lora_alpha=L["alpha"], lora_dropout=L["dropout"], bias="none")
            kw = {}
            if T["strategy"] == "zero3" and not T.get("qlora"):
                kw["autocast_adapter_dtype"] = False  # TRL for ZeRO-3 (trl#6089)
            model = peft.get_peft_model(model, lc, **kw)
            if T.get("qlora"):
                for p in model.parameters():  # TRL: QLoRA adapters in bf16 (sft_trainer.py)
                    if p.requires_grad:
                        p.data = p.data.to(torch.bfloat16)
            if T["checkpointing"]:
                model.enable_input_require_grads()

    if smoke and world.size > 1 and T["strategy"] in ("fsdp", "zero1", "zero2", "zero3"):
        notes.append("smoke: DDP over gloo in place of %s (CUDA only)" % T["strategy"])
    trainable = [p for p in model.parameters() if p.requires_grad]
    def numel(p):  # ZeRO-3 partitions parameters at construction; ds_numel is the whole
        return getattr(p, "ds_numel", p.numel())

    run["params"] = sum(numel(p) for p in model.parameters())
    run["trainable_params"] = sum(numel(p) for p in trainable)
    engine = None
    wrapped = model
    strategy = T["strategy"]
    if world.size > 1 and (smoke or strategy == "ddp"):
        kw = {} if smoke else {"device_ids": [world.local]}
        wrapped = torch.nn.parallel.DistributedDataParallel(model, find_unused_parameters=False, **kw)
    elif strategy == "fsdp" and not smoke:
        wrapped = wrap_fsdp(torch, model, T, dev, run)
        trainable = [p for p in wrapped.parameters() if p.requires_grad]
    opt = None
    if T["training"]:
        if strategy in ("zero1", "zero2", "zero3") and not smoke:
            ds = need("deepspeed", "deepspeed")
            run["deepspeed"] = ds.__version__
            cfg = json.loads(json.dumps(T["deepspeed"]))
            client = None
            if "optimizer" in cfg:  # ZeRO-Offload: DeepSpeed's own CPU Adam; Trainer fills the "auto" values
                cfg["optimizer"]["params"] = {"lr": 1e-5, "betas": [0.9, 0.999], "eps": 1e-8, "weight_decay": 0.0}
            else:
                client = optimizer_for(torch, T["optimizer"], trainable, run)
            engine, opt, _, _ = ds.initialize(model=model, model_parameters=trainable, optimizer=client, config=cfg)
            wrapped = engine
        else:
            opt = optimizer_for(torch, T["optimizer"], trainable, run)
    # Trainer trains in train mode (dropout on; transformers checkpoints only
    # while self.training): from_pretrained returns the model in eval mode.
    if T["training"]:
        wrapped.train()
    else:
        wrapped.eval()
    weights_alloc = (stats.allocated() - base0) if stats else None
    weights_counted = count_bytes(list(model.parameters()) + list(model.buffers()))

    scaler = None
    if scaler_on and engine is None:
        if strategy == "fsdp":
            from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler
            scaler = ShardedGradScaler()
        elif hasattr(torch, "amp") and hasattr(torch.amp, "GradScaler"):
            scaler = torch.amp.GradScaler("cuda")
        else:
            scaler = torch.cuda.amp.GradScaler()
    ac_dtype = getattr(torch, autocast) if autocast else None

    ac_device = "cuda" if stats else dev.type

    def autocast_ctx():
        if ac_dtype is None or engine is not None:
            return torch.autocast(device_type=ac_device, enabled=False)
        return torch.autocast(device_type=ac_device, dtype=ac_dtype)

    batch = synthetic_batch(torch, B, T, S, dev, smoke)
    accum = S["accum"] if smoke else T["grad_accum"]
    loss_kind = T.get("loss") or "cross-entropy"

    def forward():
        if smoke or B["builder"] == "torchvision":
            if loss_kind == "chunked":
                return chunked_nll(torch, wrapped(batch["x"], True), model.lm_head.weight, batch["y"])
            out = wrapped(batch["x"])
            if out.dim() == 2:
                return torch.nn.functional.cross_entropy(out.float(), batch["y"])
            if loss_kind == "fused":
                liger = need("liger_kernel.transformers", "liger-kernel")
                return liger.LigerCrossEntropyLoss()(out[..., :-1, :].reshape(-1, out.size(-1)), batch["y"][..., 1:].reshape(-1))
            return lm_loss(torch, "native" if loss_kind == "native" else "hf-fp32", out, batch["y"])
        if loss_kind in ("native", "fused"):
            out = wrapped(input_ids=batch["input_ids"])
            if loss_kind == "fused":
                liger = need("liger_kernel.transformers", "liger-kernel")
                lg = out.logits
                return liger.LigerCrossEntropyLoss()(lg[..., :-1, :].reshape(-1, lg.size(-1)), batch["labels"][..., 1:].reshape(-1))
            return lm_loss(torch, "native", out.logits, batch["labels"])
        return wrapped(**batch).loss

    grads_counted = opt_counted = None
    grads_alloc = opt_alloc = None
    times, status = [], "ok"
    warmup, steps = opts.warmup, opts.steps
    oom_types = tuple(t for t in (getattr(torch.cuda, "OutOfMemoryError", None),) if t is not None)
    peak_alloc = peak_res = smi_used = None
    try:
        for step in range(warmup + steps):
            if step == warmup:
                if stats:
                    stats.sync()
                    stats.reset_peak()
            t0 = time.perf_counter()
            if not T["training"]:
                with torch.no_grad(), autocast_ctx():
                    forward()
            else:
                for micro in range(accum):
                    with autocast_ctx():
                        loss = forward()
                    if engine is not None:
                        engine.backward(loss)
                        engine.step()
                        continue
                    loss = loss / accum
                    if scaler is not None:
                        scaler.scale(loss).backward()
                    else:
                        loss.backward()
                if step == 0:
                    grads_counted = count_bytes([p.grad for p in wrapped.parameters()])
                    if stats:
                        grads_alloc = stats.allocated() - base0 - weights_alloc
                if engine is None:
                    if scaler is not None:
                        scaler.step(opt)
                        scaler.update()
                    else:
                        opt.step()
                    opt.zero_grad(set_to_none=True)
                if step == 0:
                    opt_counted = optimizer_state_bytes(torch, opt) if engine is None else None
                    if stats:
                        opt_alloc = stats.allocated() - base0 - weights_alloc
            if stats:
                stats.sync()
            if step >= warmup:
                times.append(time.perf_counter() - t0)
        if stats:
            peak_alloc, peak_res = stats.peaks()
            smi_used = stats.smi_used()
    except oom_types:
        status = "oom"
        if stats:
            peak_alloc, peak_res = stats.peaks()
            smi_used = stats.smi_used()
        say("out of memory on the GPU at step %d: the plan does not fit as run" % (len(times) + 1))
    except RuntimeError as e:
        if "out of memory" not in str(e):
            raise
        status = "oom"
        if stats:
            peak_alloc, peak_res = stats.peaks()
        say("out of memory at step %d: the plan does not fit as run" % (len(times) + 1))

    if engine is not None:
        # DeepSpeed keeps the fp32 master, gradients and optimizer states in
        # its own partitioned buffers, made in initialize: no term is one delta.
        weights_alloc = grads_alloc = opt_alloc = weights_counted = grads_counted = opt_counted = None
        notes.append("DeepSpeed keeps the model states in its own buffers: only the peaks are measured")
    step_s = statistics.median(times) if times else None
    figs = world.max([step_s, peak_alloc, peak_res, smi_used, context, weights_alloc, grads_alloc, opt_alloc,
                      weights_counted, grads_counted, opt_counted])
    step_s, peak_alloc, peak_res, smi_used, context, weights_alloc, grads_alloc, opt_alloc, weights_counted, grads_counted, opt_counted = figs
    if world.rank != 0:
        return (0 if status == "ok" else 1), world
    batch_n = (S["batch"] if smoke else T["micro_batch"]) * accum * world.size
    vision = B["builder"] == "torchvision" or B.get("hf_head") == "image-cls"
    seq = 0 if vision else (S["seq"] if smoke else (T.get("seq_len") or 0))
    sps = batch_n / step_s if step_s else None
    terms_alloc = weights_alloc is not None or (stats is not None and engine is not None)
    measured = {
        "warmup_steps": warmup, "steps": len(times), "step_seconds": finite(step_s),
        "step_seconds_all": [finite(t) for t in times],
        "samples_per_step": batch_n, "samples_per_second": finite(sps),
        "tokens_per_second": finite(sps * seq) if sps and seq else None,
        "peak_allocated_bytes": peak_alloc, "peak_reserved_bytes": peak_res,
        "nvidia_smi_used_bytes": smi_used, "cuda_context_bytes": context,
        "weights_bytes": weights_alloc if terms_alloc else weights_counted,
        "gradients_bytes": grads_alloc if terms_alloc else grads_counted,
        "optimizer_states_bytes": opt_alloc if terms_alloc else opt_counted,
        "terms_from": "allocator" if terms_alloc else "tensors",
    }
    for k in ("peak_allocated_bytes", "peak_reserved_bytes", "nvidia_smi_used_bytes", "cuda_context_bytes",
              "weights_bytes", "gradients_bytes", "optimizer_states_bytes"):
        measured[k] = int(measured[k]) if finite(measured[k]) is not None and measured[k] >= 0 else None
    run.update({"attention": T["attention"] or None, "autocast": autocast, "load_dtype": load_dtype,
                "grad_scaler": scaler is not None, "checkpointing": T["checkpointing"], "loss": loss_kind,
                "optimizer": T["optimizer"], "strategy": strategy, "world_size": world.size,
                "micro_batch": S["batch"] if smoke else T["micro_batch"], "grad_accum": accum,
                "seq_len": seq or None, "notes": notes})
    emit(torch, stats, run, measured, status)
    return (0 if status == "ok" else 1), world


def wrap_fsdp(torch, model, T, dev, run):
    """torch FSDP as the Trainer's --fsdp "full_shard auto_wrap" runs it (accelerate's
    FSDP plugin): FULL_SHARD, one unit per transformer block (the model's
    _no_split_modules; PEFT's own policy with adapters), MixedPrecision in the autocast
    dtype, use_orig_params; the meta-device model is materialised unit by unit."""
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, MixedPrecision, ShardingStrategy
    from torch.distributed.fsdp.wrap import transformer_auto_wrap_policy
    import functools
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    if T.get("lora"):
        from peft.utils.other import fsdp_auto_wrap_policy
        policy = fsdp_auto_wrap_policy(model)
    else:
        names = set(getattr(base, "_no_split_modules", None) or [])
        layers = {type(m) for m in base.modules() if type(m).__name__ in names}
        policy = functools.partial(transformer_auto_wrap_policy, transformer_layer_cls=layers)
    mp = None
    if T["autocast"]:
        d = getattr(torch, T["autocast"])
        mp = MixedPrecision(param_dtype=d, reduce_dtype=d, buffer_dtype=d)
    cfg = run.pop("_cfg", None)

    def init(module):
        module.to_empty(device=dev, recurse=False)
        for name, p in module.named_parameters(recurse=False):
            init_tensor(torch, name, p.data)
        with torch.no_grad():
            rope_buffers(torch, module, cfg)

    meta = run.get("meta_init", False)
    return FSDP(model, auto_wrap_policy=policy, mixed_precision=mp, sharding_strategy=ShardingStrategy.FULL_SHARD,
                device_id=dev, use_orig_params=True, limit_all_gathers=True, param_init_fn=init if meta else None)


def emit(torch, stats, run, measured, status):
    for k in [k for k in run if k.startswith("_")]:
        run.pop(k)
    versions = {"python": platform.python_version(), "torch": torch.__version__ if torch else None,
                "cuda": None, "cudnn": None, "driver": None}
    for dist in ("transformers", "peft", "bitsandbytes", "deepspeed", "torchvision", "vllm", "accelerate", "trl"):
        if run.get(dist) or dist in sys.modules:
            versions[dist] = version_of(dist)
    device = None
    if stats:
        versions.update(stats.versions())
        device = stats.device()
    out = {
        "gpuplan_probe": SCHEMA, "kind": PLAN["kind"], "status": status, "smoke": bool(run.get("smoke")),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "versions": {k: v for k, v in versions.items() if v is not None},
        "device": device, "plan": PLAN["workload"], "ran": {k: v for k, v in run.items() if k not in versions},
        "measured": measured,
    }
    if PLAN.get("arch"):
        out["arch"] = PLAN["arch"]
    print(json.dumps(out, allow_nan=False, separators=(",", ":"), sort_keys=True), flush=True)
    e = PLAN.get("estimate") or {}
    gib = 1 << 30
    if measured.get("peak_allocated_bytes") is not None and e.get("torch_allocated_bytes"):
        say("peak allocated %.2f GiB, estimated %.2f GiB" % (measured["peak_allocated_bytes"] / gib, e["torch_allocated_bytes"] / gib))
    if measured.get("samples_per_second") and e.get("samples_per_second") and not run.get("smoke"):
        say("%.4g samples/s, estimated %.4g" % (measured["samples_per_second"], e["samples_per_second"]))
    say("compare with: gpuplan probe compare RESULT.json (the line above, saved to a file)")


# ---------------------------------------------------------------- serving


KV_TOKENS = re.compile(r"GPU KV cache size: ([\d,]+) tokens")
KV_BLOCKS = re.compile(r"# (?:GPU|cuda|CUDA) blocks: (\d+)")
KV_GIB = re.compile(r"Available KV cache memory: ([\d.]+) GiB")
MAX_CONC = re.compile(r"Maximum concurrency for ([\d,]+) tokens per request: ([\d.]+)x")
LOAD_GIB = re.compile(r"Model loading took ([\d.]+) ?GiB")
METRIC_BLOCKS = re.compile(r'^vllm:cache_config_info\{[^}]*\bnum_gpu_blocks="(\d+)"', re.M)
METRIC_BLOCK_SIZE = re.compile(r'^vllm:cache_config_info\{[^}]*\bblock_size="(\d+)"', re.M)


def read_log(path):
    """The last LOG_CAP bytes of the engine's log, as text."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - LOG_CAP))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def parse_engine_log(text):
    """vLLM's own KV-cache figures from its startup log: the V1 engine's "GPU KV cache
    size: N tokens" and "Available KV cache memory: X GiB"
    (vllm/v1/core/kv_cache_utils.py, vllm/v1/worker/gpu_worker.py), the V0 engine's
    "# GPU blocks: N" (vllm/executor/executor_base.py), and "Model loading took X GiB"."""
    out = {}
    m = KV_TOKENS.findall(text)
    if m:
        out["kv_cache_tokens"] = int(m[-1].replace(",", ""))
    m = KV_BLOCKS.findall(text)
    if m:
        out["gpu_blocks"] = int(m[-1])
    m = KV_GIB.findall(text)
    if m:
        out["kv_cache_bytes"] = int(float(m[-1]) * (1 << 30))
    m = MAX_CONC.findall(text)
    if m:
        out["max_concurrency"] = float(m[-1][1])
    m = LOAD_GIB.findall(text)
    if m:
        out["weights_bytes"] = int(float(m[-1]) * (1 << 30))
    return out


def parse_metrics(text):
    out = {}
    b, s = METRIC_BLOCKS.search(text), METRIC_BLOCK_SIZE.search(text)
    if b:
        out["gpu_blocks"] = int(b.group(1))
    if b and s:
        out["kv_cache_tokens_metrics"] = int(b.group(1)) * int(s.group(1))
    return out


def http_get(port, path, timeout=5):
    import http.client
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        c.request("GET", path)
        r = c.getresponse()
        return r.status, r.read(1 << 20).decode("utf-8", "replace")
    finally:
        c.close()


def one_request(port, model_id, prompt, max_tokens):
    """One streamed completion: time to the first token, then per output token."""
    import http.client
    body = json.dumps({"model": model_id, "prompt": prompt, "max_tokens": max_tokens, "ignore_eos": True,
                       "stream": True, "stream_options": {"include_usage": True}})
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    t0 = time.perf_counter()
    first = last = None
    tokens = 0
    try:
        c.request("POST", "/v1/completions", body=body, headers={"Content-Type": "application/json"})
        r = c.getresponse()
        if r.status != 200:
            raise RuntimeError("the server answered %d: %s" % (r.status, r.read(300).decode("utf-8", "replace")))
        while True:
            line = r.readline(1 << 20)
            if not line:
                break
            line = line.strip()
            if not line.startswith(b"data:"):
                continue
            data = line[5:].strip()
            if data == b"[DONE]":
                break
            msg = json.loads(data)
            if msg.get("choices") and msg["choices"][0].get("text"):
                now = time.perf_counter()
                first = first or now
                last = now
            if msg.get("usage"):
                tokens = msg["usage"].get("completion_tokens") or tokens
    finally:
        c.close()
    end = time.perf_counter()
    ttft = (first - t0) if first else None
    tpot = (last - first) / (tokens - 1) if first and last and tokens > 1 else None
    return {"ttft": ttft, "tpot": tpot, "tokens": tokens, "seconds": end - t0}


def run_load(ports, V, model_id, concurrency, requests, smoke):
    """A closed loop of `concurrency` clients sending the planned prompt and output
    lengths (random token ids, ignore_eos so every request generates in full), request
    k to ports[k % len(ports)]: the servers in turn, as a round-robin load balancer
    in front of an MoE model's one server per replica would send them."""
    from concurrent.futures import ThreadPoolExecutor
    rnd = random.Random(0)
    hi = max(V["vocab"] - 100, 101)
    prompts = [[rnd.randrange(100, hi) for _ in range(V["prompt_tokens"])] for _ in range(requests)]
    for port in ports:
        one_request(port, model_id, prompts[0][:16], 4)  # warm-up
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        results = list(pool.map(lambda k: one_request(ports[k % len(ports)], model_id, prompts[k], V["output_tokens"]),
                                range(len(prompts))))
    wall = time.perf_counter() - t0
    out_tokens = sum(r["tokens"] for r in results)
    ttfts = [r["ttft"] for r in results if r["ttft"] is not None]
    tpots = [r["tpot"] for r in results if r["tpot"] is not None]
    return {
        "requests": len(results), "concurrency": concurrency, "wall_seconds": finite(wall),
        "output_tokens": out_tokens, "output_tokens_per_second": finite(out_tokens / wall) if wall else None,
        "input_tokens_per_second": finite(len(results) * V["prompt_tokens"] / wall) if wall else None,
        "ttft_seconds": finite(statistics.median(ttfts)) if ttfts else None,
        "tpot_seconds": finite(statistics.median(tpots)) if tpots else None,
    }


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def smoke_server(torch, V, port, log_path):
    """A stand-in for vllm serve on the CPU: /health, /metrics and streamed
    /v1/completions from a tiny plain-PyTorch decoder, and a log with vLLM's lines."""
    import http.server
    S = {"batch": 1, "accum": 1, "seq": 16, "image": 32, "vocab": 256, "hidden": 64, "layers": 2, "heads": 4,
         "ffn": 128, "classes": 10}
    model = tiny_model(torch, {"builder": "transformers", "norm": "rmsnorm", "gated_mlp": True},
                       {"attention": "sdpa"}, S, []).eval()
    lock = threading.Lock()
    blocks = 64

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            if self.path == "/health":
                body = b""
            elif self.path == "/metrics":
                body = ('vllm:cache_config_info{block_size="16",num_gpu_blocks="%d"} 1.0\n' % blocks).encode()
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            n = int(self.headers.get("Content-Length", "0"))
            req = json.loads(self.rfile.read(n))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            ids = torch.tensor([[t % 256 for t in req["prompt"]][-16:]])
            for i in range(req["max_tokens"]):
                with lock, torch.no_grad():
                    nxt = model(ids)[0, -1].argmax().view(1, 1)
                ids = torch.cat([ids, nxt], dim=1)[:, -16:]
                chunk = {"choices": [{"text": "t%d" % int(nxt)}]}
                self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
            self.wfile.write(b'data: {"choices":[],"usage":{"completion_tokens":%d}}\n\n' % req["max_tokens"])
            self.wfile.write(b"data: [DONE]\n\n")

    with open_fresh(os.path.dirname(log_path), os.path.basename(log_path), "w") as f:
        f.write("INFO gpu_worker.py Available KV cache memory: 0.01 GiB\n")
        f.write("INFO kv_cache_utils.py GPU KV cache size: %s tokens\n" % "{:,}".format(blocks * 16))
        f.write("INFO kv_cache_utils.py Maximum concurrency for %s tokens per request: %.2fx\n"
                % ("{:,}".format(V["max_model_len"]), blocks * 16 / V["max_model_len"]))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def serve(opts):
    """Starts the serving files' servers and times the planned load against them.

    PLAN["serve"]["servers"] lists each server's CUDA_VISIBLE_DEVICES when the serving
    script starts one vllm serve per replica (an MoE model's replicas sharing the node:
    one vllm serve with --data-parallel-size would tie their expert layers into one
    group, a deployment the files do not run); the probe starts them the same way, each
    on its own port, sends the requests to them in turn and reads the first one's
    KV-cache figures (each replica's engine is the same). Without it, one vllm serve
    with the engine flags on all the GPUs, as the files start every other plan."""
    V = PLAN["serve"]
    smoke = opts.cpu_smoke
    torch = need("torch", "torch") if smoke else None
    gpus = V.get("servers") or [None]
    log_dir = os.path.join(os.getcwd(), PROBE_DIR)
    logs = ["vllm-serve.log"] + ["vllm-serve-%d.log" % i for i in range(1, len(gpus))]
    log_path = os.path.join(log_dir, logs[0])
    notes, run = [], {"builder": "vllm", "smoke": smoke, "argv": V["argv"]}
    procs, ports, srv = [], [], None
    stats = None
    started = time.perf_counter()
    try:
        if smoke:
            V = dict(V, prompt_tokens=min(V["prompt_tokens"], 8), output_tokens=min(V["output_tokens"], 4), vocab=256)
            ports = [free_port()]
            srv = smoke_server(torch, V, ports[0], log_path)
            notes.append("smoke: a tiny plain-PyTorch decoder behind a stand-in server, not vLLM")
        else:
            pip = V.get("pip") or "vllm"  # a release before v0.20.0 on a CUDA 12 GPU (the plan's)
            if importlib.util.find_spec("vllm") is None:  # not imported: vllm serve runs it
                raise Refusal("this plan needs the Python package vllm: pip install %s, then run again" % pip)
            exe = shutil.which("vllm")
            if not exe:
                raise Refusal("the vllm command is not on PATH: pip install %s, then run again" % pip)
            for i, dev in enumerate(gpus):
                port = free_port()
                argv = [exe, "serve", V["model_id"]] + list(V["argv"]) + ["--port", str(port), "--host", "127.0.0.1"]
                env = None
                if dev is not None:
                    env = dict(os.environ, CUDA_VISIBLE_DEVICES=dev)
                log = open_fresh(log_dir, logs[i], "wb")
                say(("CUDA_VISIBLE_DEVICES=%s " % dev if dev is not None else "") + "starting " + " ".join(argv[1:])
                    + " (log: %s)" % os.path.join(log_dir, logs[i]))
                try:
                    procs.append(subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                                  env=env, start_new_session=True))
                finally:
                    log.close()
                ports.append(port)
            if len(procs) > 1:
                notes.append("%d vllm serve, one per replica on GPUs %s, as the serving script starts an MoE model's; "
                             "requests in turn; KV-cache figures from the first" % (len(procs), " / ".join(gpus)))
        deadline = time.monotonic() + opts.timeout
        waiting = list(range(len(ports)))
        while waiting:
            for i in list(waiting):
                try:
                    if http_get(ports[i], "/health")[0] == 200:
                        waiting.remove(i)
                        continue
                except OSError:
                    pass
                if procs and procs[i].poll() is not None:
                    path = os.path.join(log_dir, logs[i])
                    tail = read_log(path).strip().splitlines()[-1:] or ["(empty log)"]
                    raise RuntimeError("vllm serve%s exited with %d before it was up; last log line: %s"
                                       % (server_name(i, len(procs), path), procs[i].returncode, tail[0][:300]))
            if not waiting:
                break
            if time.monotonic() > deadline:
                raise RuntimeError("vllm serve was not up within %d s (--timeout); see %s" % (opts.timeout, log_path))
            time.sleep(1)
        startup = time.perf_counter() - started
        engine = parse_engine_log(read_log(log_path))
        try:
            engine.update(parse_metrics(http_get(ports[0], "/metrics")[1]))
        except OSError:
            notes.append("no /metrics endpoint answered")
        conc = max(1, V["concurrency"])
        requests = opts.requests or max(2 * conc, 8)
        load = run_load(ports, V, V["model_id"], conc, requests, smoke)
        for i, p in enumerate(procs):
            if p.poll() is not None:
                path = os.path.join(log_dir, logs[i])
                raise RuntimeError("vllm serve%s exited with %d during the load; see %s"
                                   % (server_name(i, len(procs), path), p.returncode, path))
        smi = None
        if procs:
            smi = smi_process_bytes(*[c for p in procs for c in child_pids(p.pid)])
        measured = dict(engine)
        measured.update(load)
        measured["startup_seconds"] = finite(startup)
        measured["nvidia_smi_used_bytes"] = smi or None
        run["notes"] = notes
        emit_serve(run, measured, smoke)
    finally:
        if srv is not None:
            srv.shutdown()
        for proc in procs:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, 15)
                except OSError:
                    proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
    return 0


def server_name(i, n, log_path):
    """Which of n servers the i-th is, for a message: nothing when it is the only one."""
    return " %d of %d (log: %s)" % (i + 1, n, log_path) if n > 1 else ""


def child_pids(pid):
    """pid and its descendants (vLLM's engine core and workers hold the GPU memory)."""
    pids, frontier = [pid], [pid]
    while frontier:
        p = frontier.pop()
        try:
            with open("/proc/%d/task/%d/children" % (p, p)) as f:
                kids = [int(x) for x in f.read().split()]
        except (OSError, ValueError):
            kids = []
        pids += kids
        frontier += kids
    return pids


def smi_device():
    """The first visible GPU as nvidia-smi reports it: no CUDA context is made
    in this process while vLLM holds the memory."""
    out = nvidia_smi(["--query-gpu=index,name,memory.total,compute_cap", "--format=csv,noheader,nounits"])
    if not out:
        return None
    want = (os.environ.get("CUDA_VISIBLE_DEVICES") or "0").split(",")[0].strip()
    rows = [[p.strip() for p in line.split(",")] for line in out.splitlines() if line.strip()]
    for r in rows:
        if len(r) == 4 and (r[0] == want or want not in [x[0] for x in rows]):
            try:
                return {"name": r[1], "memory_bytes": int(float(r[2]) * 1048576), "compute_capability": r[3], "count": len(rows)}
            except ValueError:
                return None
    return None


def emit_serve(run, measured, smoke):
    versions = {"python": platform.python_version()}
    for dist in ("vllm", "torch", "transformers"):
        v = version_of(dist)
        if v and (not smoke or dist == "torch"):
            versions[dist] = v
    device = None
    if not smoke:
        device = smi_device()
        driver = smi_driver()
        if driver:
            versions["driver"] = driver
        try:
            torch = importlib.import_module("torch")  # the CUDA it was built with; no device is touched
            if torch.version.cuda:
                versions["cuda"] = torch.version.cuda
        except ImportError:
            pass
    for k in list(measured):
        if isinstance(measured[k], float):
            measured[k] = finite(measured[k])
    out = {"gpuplan_probe": SCHEMA, "kind": "serve", "status": "ok", "smoke": smoke,
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "versions": versions, "device": device, "plan": PLAN["workload"], "ran": run, "measured": measured}
    if PLAN.get("arch"):
        out["arch"] = PLAN["arch"]
    print(json.dumps(out, allow_nan=False, separators=(",", ":"), sort_keys=True), flush=True)
    say("compare with: gpuplan probe compare RESULT.json (the line above, saved to a file)")


# ---------------------------------------------------------------- main


def main(argv):
    ap = argparse.ArgumentParser(prog="gpuplan-probe", description="Measure the planned job on this machine.")
    ap.add_argument("--cpu-smoke", action="store_true", help="a tiny plain-PyTorch model on the CPU: checks the script, not the plan")
    ap.add_argument("--plan", action="store_true", help="print the plan this script runs, as JSON, and exit")
    ap.add_argument("--warmup", type=int, default=3, help="warm-up steps, not timed (default 3)")
    ap.add_argument("--steps", type=int, default=10, help="measured steps (default 10)")
    ap.add_argument("--requests", type=int, default=0, help="serving: requests to send (default twice the concurrency, at least 8)")
    ap.add_argument("--timeout", type=int, default=1800, help="serving: seconds to wait for vllm serve to be up (default 1800)")
    ap.add_argument("--hf-home", default="", help="use this Hugging Face cache (it may be written) instead of ./%s/hf" % PROBE_DIR)
    opts = ap.parse_args(argv)
    if opts.plan:
        print(json.dumps(PLAN, sort_keys=True))
        return 0
    if PLAN.get("schema") != SCHEMA or PLAN.get("kind") not in ("train", "serve"):
        raise Refusal("this script has no plan; write one with gpuplan export --format probe")
    if opts.warmup < 0 or opts.steps < 1 or opts.requests < 0 or opts.timeout < 1:
        raise Refusal("--warmup must be ≥ 0, --steps ≥ 1, --requests ≥ 0 and --timeout ≥ 1")
    confine(os.getcwd(), opts.hf_home)
    if PLAN["kind"] == "serve":
        return serve(opts)
    code, world = train(opts)  # the model and its wrappers are freed with train's frame,
    gc.collect()               # before the process group they use is destroyed
    world.close()
    return code


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Refusal as e:
        say(str(e))
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as e:  # one line; the traceback with GPUPLAN_PROBE_DEBUG=1
        if os.environ.get("GPUPLAN_PROBE_DEBUG"):
            raise
        say("failed: %s: %s (GPUPLAN_PROBE_DEBUG=1 shows the traceback)" % (type(e).__name__, str(e).splitlines()[0][:400] if str(e) else ""))
        sys.exit(1)
