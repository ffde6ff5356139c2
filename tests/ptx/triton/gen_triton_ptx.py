#!/usr/bin/env python3
"""Regenerates the Triton PTX in tests/ptx/triton/ (run where Triton is
installed; compiling needs no GPU launch): vector add with a mask, a row
softmax, layernorm, and a tiled matmul with tl.dot, for sm_80 and sm_90.
Usage: gen_triton_ptx.py OUTDIR"""
import os
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)


@triton.jit
def softmax_kernel(out, inp, stride, ncols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(inp + row * stride + cols, mask=cols < ncols, other=-float('inf'))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(out + row * stride + cols, e / tl.sum(e, axis=0), mask=cols < ncols)


@triton.jit
def layernorm_kernel(x, y, w, b, stride, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n
    v = tl.load(x + row * stride + cols, mask=m, other=0.).to(tl.float32)
    mean = tl.sum(v, axis=0) / n
    d = tl.where(m, v - mean, 0.)
    rstd = 1 / tl.sqrt(tl.sum(d * d, axis=0) / n + eps)
    out = d * rstd * tl.load(w + cols, mask=m) + tl.load(b + cols, mask=m)
    tl.store(y + row * stride + cols, out, mask=m)


@triton.jit
def matmul_kernel(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * sam + (k + rk)[None, :] * sak, mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.)
        y = tl.load(b + (k + rk)[:, None] * sbk + rn[None, :] * sbn, mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.)
        acc += tl.dot(x, y)
    tl.store(c + rm[:, None] * scm + rn[None, :] * scn, acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


KERNELS = [
    ('add', add_kernel, {'x': '*fp32', 'y': '*fp32', 'out': '*fp32', 'n': 'i32'}, {'BLOCK': 1024}),
    ('softmax', softmax_kernel, {'out': '*fp32', 'inp': '*fp32', 'stride': 'i32', 'ncols': 'i32'}, {'BLOCK': 1024}),
    ('layernorm', layernorm_kernel, {'x': '*fp16', 'y': '*fp32', 'w': '*fp32', 'b': '*fp32', 'stride': 'i32',
                                     'n': 'i32', 'eps': 'fp32'}, {'BLOCK': 2048}),
    ('matmul', matmul_kernel, {'a': '*fp16', 'b': '*fp16', 'c': '*fp16', 'M': 'i32', 'N': 'i32', 'K': 'i32',
                               'sam': 'i32', 'sak': 'i32', 'sbk': 'i32', 'sbn': 'i32', 'scm': 'i32', 'scn': 'i32'},
     {'BM': 128, 'BN': 128, 'BK': 64}),
]


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for arch in (80, 90):
        for name, fn, sig, consts in KERNELS:
            full = dict(sig)
            full.update({k: 'constexpr' for k in consts})
            src = ASTSource(fn=fn, signature=full, constexprs=consts)
            k = triton.compile(src, target=GPUTarget('cuda', arch, 32))
            path = os.path.join(outdir, 'triton_%s_sm%d.ptx' % (name, arch))
            with open(path, 'w') as f:
                f.write(k.asm['ptx'])
            print(path, len(k.asm['ptx']))


if __name__ == '__main__':
    main()
