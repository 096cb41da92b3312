#!/usr/bin/python3
"""What autograd saves for backward in YOLOv8n (issue 30, item 5: the held-out
YOLOv8n case read 64% low in reserved memory).

Run with Debian's python3-torch (CPU, 1.13):
    /usr/bin/python3 yolov8n_saved_tensors.py > yolov8n_saved_tensors.json

Ultralytics is not packaged for Debian, so the network is rebuilt, module by
module, from ultralytics/cfg/models/v8/yolov8.yaml (scale n: depth 0.33,
width 0.25, max_channels 1024) and ultralytics/nn/modules (Conv = Conv2d
without bias + BatchNorm2d + SiLU; C2f with chunk(2, 1); Bottleneck with two
3x3 Convs; SPPF with MaxPool2d(5, 1, 2) three times; Detect with reg_max 16
and 80 classes). Its parameter count, 3,157,184, is the published 3,157,200
less the DFL's fixed 16-weight conv, which the loss runs, not the network.
Train mode, 640 px, batch 1 and 2; storages counted once, parameters and
buffers left out, as cnn_saved_tensors.py counts them. The loss
(v8DetectionLoss with its TaskAlignedAssigner), the EMA copy, cuDNN
workspaces and the caching allocator are not in it."""
import json, sys
import torch, torch.nn as nn
torch.set_num_threads(2)

class Conv(nn.Module):
    def __init__(s, c1, c2, k=1, st=1):
        super().__init__(); s.conv = nn.Conv2d(c1, c2, k, st, k // 2, bias=False); s.bn = nn.BatchNorm2d(c2); s.act = nn.SiLU()
    def forward(s, x): return s.act(s.bn(s.conv(x)))

class Bottleneck(nn.Module):
    def __init__(s, c1, c2, shortcut=True):
        super().__init__(); s.cv1 = Conv(c1, c2, 3); s.cv2 = Conv(c2, c2, 3); s.add = shortcut and c1 == c2
    def forward(s, x): return x + s.cv2(s.cv1(x)) if s.add else s.cv2(s.cv1(x))

class C2f(nn.Module):
    def __init__(s, c1, c2, n=1, shortcut=False):
        super().__init__(); s.c = c2 // 2; s.cv1 = Conv(c1, 2 * s.c, 1); s.cv2 = Conv((2 + n) * s.c, c2, 1)
        s.m = nn.ModuleList(Bottleneck(s.c, s.c, shortcut) for _ in range(n))
    def forward(s, x):
        y = list(s.cv1(x).chunk(2, 1)); y.extend(m(y[-1]) for m in s.m); return s.cv2(torch.cat(y, 1))

class SPPF(nn.Module):
    def __init__(s, c1, c2, k=5):
        super().__init__(); c_ = c1 // 2; s.cv1 = Conv(c1, c_, 1); s.cv2 = Conv(c_ * 4, c2, 1); s.m = nn.MaxPool2d(k, 1, k // 2)
    def forward(s, x):
        y = [s.cv1(x)]; y.extend(s.m(y[-1]) for _ in range(3)); return s.cv2(torch.cat(y, 1))

class Detect(nn.Module):
    def __init__(s, nc=80, ch=(64, 128, 256), reg_max=16):
        super().__init__(); c2, c3 = max(16, ch[0] // 4, reg_max * 4), max(ch[0], min(nc, 100))
        s.cv2 = nn.ModuleList(nn.Sequential(Conv(x, c2, 3), Conv(c2, c2, 3), nn.Conv2d(c2, 4 * reg_max, 1)) for x in ch)
        s.cv3 = nn.ModuleList(nn.Sequential(Conv(x, c3, 3), Conv(c3, c3, 3), nn.Conv2d(c3, nc, 1)) for x in ch)
    def forward(s, xs): return [torch.cat((a(x), b(x)), 1) for x, a, b in zip(xs, s.cv2, s.cv3)]

class YOLOv8n(nn.Module):
    def __init__(s):
        super().__init__()
        s.b0 = Conv(3, 16, 3, 2); s.b1 = Conv(16, 32, 3, 2); s.b2 = C2f(32, 32, 1, True); s.b3 = Conv(32, 64, 3, 2)
        s.b4 = C2f(64, 64, 2, True); s.b5 = Conv(64, 128, 3, 2); s.b6 = C2f(128, 128, 2, True); s.b7 = Conv(128, 256, 3, 2)
        s.b8 = C2f(256, 256, 1, True); s.b9 = SPPF(256, 256); s.up = nn.Upsample(None, 2, "nearest")
        s.h12 = C2f(384, 128, 1); s.h15 = C2f(192, 64, 1); s.h16 = Conv(64, 64, 3, 2); s.h18 = C2f(192, 128, 1)
        s.h19 = Conv(128, 128, 3, 2); s.h21 = C2f(384, 256, 1); s.det = Detect()
    def forward(s, x):
        x = s.b2(s.b1(s.b0(x))); p3 = s.b4(s.b3(x)); p4 = s.b6(s.b5(p3)); p5 = s.b9(s.b8(s.b7(p4)))
        h12 = s.h12(torch.cat([s.up(p5), p4], 1)); h15 = s.h15(torch.cat([s.up(h12), p3], 1))
        h18 = s.h18(torch.cat([s.h16(h15), h12], 1)); h21 = s.h21(torch.cat([s.h19(h18), p5], 1))
        return s.det([h15, h18, h21])

def measure(net, b, size):
    params = {p.storage().data_ptr() for p in net.parameters()} | {t.storage().data_ptr() for t in net.buffers()}
    seen = {}
    def pack(t):
        st = t.storage(); ptr = st.data_ptr()
        if ptr in params or ptr in seen: return t
        kind = "index" if t.dtype in (torch.int64, torch.int32, torch.uint8, torch.bool) else ("stats" if t.dim() == 1 and t.numel() < 10000 else "float")
        seen[ptr] = (kind, st.nbytes()); return t
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = net(torch.randn(b, 3, size, size))
    got = {"float": 0, "index": 0, "stats": 0}
    for k, n in seen.values(): got[k] += n
    return got

net = YOLOv8n().train()
n = sum(p.numel() for p in net.parameters())
res = {"params": n, "by_batch": {}}
for b in (1, 2):
    g = measure(net, b, 640); g["bytes16"] = g["float"] // 2 + g["index"] + g["stats"]; res["by_batch"][b] = g
res["per_sample_mib_16bit_640"] = (res["by_batch"][2]["bytes16"] - res["by_batch"][1]["bytes16"]) / 2**20
json.dump(res, sys.stdout, indent=1); print()
