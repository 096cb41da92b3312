#!/usr/bin/python3
"""How much of the ViT-L reserved gap (rasbt/pytorch-memory-optim, cases-
round3.toml: torch.cuda.max_memory_reserved 0.75-0.8 GB above the estimate's
allocated bytes at micro-batch 4 and 16 in bf16-true) the caching
allocator's segment packing of the model states explains. Not run by the
tests; its output is allocator_packing.txt.

A best-fit model of c10/cuda/CUDACachingAllocator.cpp (one stream, no
expandable segments, default max_split_size): round_size to 512 B
(kMinBlockSize); <= 1 MiB (kSmallSize) from the small pool in 2 MiB
segments (kSmallBuffer); < 10 MiB (kMinLargeAlloc) from 20 MiB segments
(kLargeBuffer); else rounded up to 2 MiB (kRoundLarge); a block is split
when the remainder is >= 512 B (small pool) or > 1 MiB (large pool); freed
blocks merge with free neighbours. The trace: torchvision vit_l_16's
parameters (head Linear(1024, 10)) moved to the GPU in module order, the
gradients in reverse order, Adam's exp_avg and exp_avg_sq per parameter
(_init_group), then _multi_tensor_adam's _foreach_sqrt temporary, freed.

Result: 0.137 GB of slack over 3.04 GB of model states in bf16 (4.5%), none
in fp32 (its 4 and 12 MiB tensors pack 20 MiB segments exactly, 16 MiB ones
round exactly): the packing of the model states explains under a fifth of
the gap. The rest would be the activations' blocks, which need the step's
allocation trace; not modeled."""
import bisect
MiB = 1 << 20
class Alloc:
    def __init__(s):
        s.free = {'S': [], 'L': []}; s.reserved = 0; s.alloc = 0; s.peak_res = 0; s.peak_alloc = 0
        s.blocks = {}; s.nid = 0; s.segblocks = {}
    def _new(s, seg, off, size, pool, free):
        s.nid += 1; s.blocks[s.nid] = dict(seg=seg, off=off, size=size, pool=pool, free=free); s.segblocks.setdefault(seg, set()).add(s.nid)
        if free: bisect.insort(s.free[pool], (size, s.nid))
        return s.nid
    def malloc(s, n):
        n = 512 if n < 512 else (n + 511) // 512 * 512
        pool = 'S' if n <= MiB else 'L'
        fl = s.free[pool]; i = bisect.bisect_left(fl, (n, -1))
        if i < len(fl):
            size, bid = fl.pop(i)
        else:
            seg_size = 2 * MiB if pool == 'S' else (20 * MiB if n < 10 * MiB else (n + 2 * MiB - 1) // (2 * MiB) * (2 * MiB))
            s.reserved += seg_size; seg = len(s.segblocks)
            bid = s._new(seg, 0, seg_size, pool, False); size = seg_size
        b = s.blocks[bid]; b['free'] = False
        rem = size - n
        if (pool == 'S' and rem >= 512) or (pool == 'L' and rem > MiB):
            b['size'] = n; s._new(b['seg'], b['off'] + n, rem, pool, True)
        s.alloc += b['size']; s.peak_alloc = max(s.peak_alloc, s.alloc); s.peak_res = max(s.peak_res, s.reserved)
        return bid
    def free_(s, bid):
        b = s.blocks[bid]; s.alloc -= b['size']; b['free'] = True; pool = b['pool']
        for nid in list(s.segblocks[b['seg']]):
            nb = s.blocks.get(nid)
            if nid == bid or nb is None or not nb['free']: continue
            if nb['off'] + nb['size'] == b['off'] or b['off'] + b['size'] == nb['off']:
                s.free[pool].remove((nb['size'], nid)); b['off'] = min(b['off'], nb['off']); b['size'] += nb['size']
                del s.blocks[nid]; s.segblocks[b['seg']].discard(nid)
        bisect.insort(s.free[pool], (b['size'], bid))

def vit_l_params(el):
    ps = [3*16*16*1024, 1024, 1024, 197*1024]  # conv_proj w,b, class token, pos
    for _ in range(24):
        ps += [1024, 1024, 3072*1024, 3072, 1024*1024, 1024, 1024, 1024, 4096*1024, 4096, 1024*4096, 1024]
    ps += [1024, 1024, 10*1024, 10]
    return [p*el for p in ps]

def run(ps, state_el_ratio=1.0, temp=True):
    a = Alloc()
    W = [a.malloc(p) for p in ps]
    G = [a.malloc(p) for p in reversed(ps)]
    S = []
    for p in ps:
        S.append(a.malloc(int(p*state_el_ratio))); S.append(a.malloc(int(p*state_el_ratio)))
    if temp:
        T = [a.malloc(int(p*state_el_ratio)) for p in ps]
        for t in T: a.free_(t)
    return a
if __name__ == '__main__':
    for name, el, r in [('bf16-true', 2, 1), ('amp (fp32 params)', 4, 1), ('fp32', 4, 1)]:
        ps = vit_l_params(el)
        a = run(ps, r)
        print(name, 'params %.3f GB' % (sum(ps)/1e9), 'peak alloc %.3f GB reserved %.3f GB slack %.3f GB (%.1f%%)' % (a.peak_alloc/1e9, a.peak_res/1e9, (a.peak_res-a.peak_alloc)/1e9, 100*(a.peak_res/a.peak_alloc-1)))
