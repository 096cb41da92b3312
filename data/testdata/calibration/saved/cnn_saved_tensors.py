#!/usr/bin/python3
"""Count what autograd saves for backward in torchvision CNNs in train mode
(issue 30, item 5), to check gpuplan's CNN activation term (the catalog's
activation_mib_per_sample, model/memory.go trainingActivations).

Run with Debian's python3-torch and python3-torchvision (CPU, 1.13 / 0.14):
    /usr/bin/python3 cnn_saved_tensors.py > cnn_saved_tensors.json

How it counts (as saved_tensors.py does for transformer blocks).
torch.autograd.graph.saved_tensors_hooks calls pack_hook on every tensor an
autograd node saves for backward during forward. Each saved tensor is
attributed to its storage (views and in-place results share one: torchvision's
ReLU(inplace=True) rewrites the BatchNorm output it saves) and a storage counts
once, at its full size. Parameters and buffers (conv weights, BatchNorm
running statistics) are left out: they are counted as weights. The network
input is counted (the first conv saves it). Saved bytes are split by dtype:
  float   activations (conv and BatchNorm inputs, ReLU/Hardswish outputs,
          the operands of squeeze-excitation products, pooled features)
  index   max-pool's int64 indices (aten max_pool2d_with_indices)
  stats   BatchNorm's per-channel save_mean / save_invstd (fp32, tiny)
"float" runs here in fp32. Under CUDA autocast the convolutions run in 16-bit
and cudnn batch norm keeps a 16-bit input and output (batch_norm is on none of
autocast's cast lists, aten/src/ATen/autocast_mode.cpp), so the 16-bit reading
is float/2 + index + stats: "bytes16" below.

Models in train mode (BatchNorm uses batch statistics), batch 1, 2 and 4, image
sizes 160, 224 and 320. Per-sample bytes are fitted per image size as the
slope over batch (the intercept is ~0: nothing is saved per network).

What this cannot show: cuDNN's convolution workspaces (chosen per algorithm by
cudnnFind/benchmark mode, transient, up to GiBs), cuDNN batch-norm's reserve
space, and the CUDA caching allocator (512-byte rounding, 2 MiB small-block
and 20 MiB large-block segments, fragmentation: c10/cuda/CUDACachingAllocator.cpp)
and the CUDA context. gpuplan's reserved and nvidia-smi figures rest on
published readings for those.
"""
import json
import sys

import torch
import torchvision

torch.manual_seed(0)
torch.set_num_threads(2)

MODELS = ["resnet18", "resnet50", "mobilenet_v3_small"]
BATCHES = [1, 2, 4]
SIZES = [160, 224, 320]


def measure(net, b, size):
    params = {p.storage().data_ptr() for p in net.parameters()} | {t.storage().data_ptr() for t in net.buffers()}
    seen = {}

    def pack(t):
        st = t.storage()
        ptr = st.data_ptr()
        if ptr in params or ptr in seen:
            return t
        nbytes = st.nbytes()
        if t.dtype in (torch.int64, torch.int32, torch.uint8, torch.bool):
            kind = "index"
        elif t.dim() == 1 and t.dtype == torch.float32 and t.numel() < 10000:
            kind = "stats"  # BatchNorm save_mean / save_invstd (per channel)
        else:
            kind = "float"
        seen[ptr] = (kind, nbytes)
        return t

    x = torch.randn(b, 3, size, size)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = net(x)
    out.sum()  # keep the graph alive until counted
    got = {"float": 0, "index": 0, "stats": 0}
    for kind, n in seen.values():
        got[kind] += n
    del out
    return got


def main():
    res = {"torch": torch.__version__, "torchvision": torchvision.__version__,
           "batches": BATCHES, "sizes": SIZES, "models": {}}
    for name in MODELS:
        net = getattr(torchvision.models, name)()
        net.train()
        m = {}
        for size in SIZES:
            rows = {}
            for b in BATCHES:
                g = measure(net, b, size)
                g["bytes16"] = g["float"] // 2 + g["index"] + g["stats"]
                rows[str(b)] = g
                print(name, size, b, g, file=sys.stderr, flush=True)
            lo, hi = rows[str(BATCHES[0])], rows[str(BATCHES[-1])]
            span = BATCHES[-1] - BATCHES[0]
            per = {k: (hi[k] - lo[k]) / span for k in ("float", "index", "stats", "bytes16")}
            m[str(size)] = {"by_batch": rows,
                            "per_sample_mib_fp32": round((per["float"] + per["index"] + per["stats"]) / 2**20, 3),
                            "per_sample_mib_16bit": round(per["bytes16"] / 2**20, 3)}
        res["models"][name] = m
    json.dump(res, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
