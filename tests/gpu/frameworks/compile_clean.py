# Correct: a torch.compile'd MLP block and a small causal attention block,
# trained a step at a time (forward and backward). Inductor turns their
# normalisations, activations, softmax and the backward's elementwise work
# into Triton kernels, which under gsan go through its ptxas wrapper (the
# matmuls stay cuBLAS's, SASS only). Nothing may be reported. Then each step
# is timed: CUDA events around ITERS steps, the median of REPEATS such runs,
# after the warm-up steps that compile. run.sh runs it natively and under
# `gsan run` (PyTorch's caching allocator off and on in each) and prints the
# ratios. Under gsan it expects exit status 0 and:
# CHECK: mlp: compiled matches eager: yes
# CHECK: mlp: median {{[0-9.]+}} ms per step
# CHECK: attention: compiled matches eager: yes
# CHECK: attention: median {{[0-9.]+}} ms per step
# CHECK: compile_clean: done
import argparse
import math
import os
import statistics
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, d=1024, hidden=4096):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, hidden)
        self.fc2 = nn.Linear(hidden, d)

    def forward(self, x):
        return x + self.fc2(F.gelu(self.fc1(self.norm(x))))


class Attention(nn.Module):
    """Causal self-attention written out (no fused SDPA kernel), so that
    Inductor makes Triton kernels of the scaling, mask and softmax."""

    def __init__(self, d=512, heads=8, context=256):
        super().__init__()
        self.heads = heads
        self.norm = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.register_buffer('mask', torch.tril(torch.ones(context, context, dtype=torch.bool)))

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.norm(x)).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(c // self.heads))
        att = att.masked_fill(~self.mask[:t, :t], float('-inf'))
        y = F.softmax(att, dim=-1) @ v
        return x + self.proj(y.transpose(1, 2).reshape(b, t, c))


def inductor_kernels():
    try:
        from torch._inductor import metrics
        return metrics.generated_kernel_count
    except (ImportError, AttributeError):
        return -1


def run(name, model, x, iters, repeats, warmup):
    compiled = torch.compile(model)
    before = inductor_kernels()
    t0 = time.time()

    def step():
        for p in model.parameters():
            p.grad = None
        compiled(x).square().mean().backward()

    for _ in range(warmup):
        step()
    torch.cuda.synchronize()
    print('%s: compile and %d warm-up steps: %.1f s; Inductor kernels generated here: %d (0 when its cache had them)'
          % (name, warmup, time.time() - t0, inductor_kernels() - before), flush=True)
    ref, got = model(x).detach(), compiled(x).detach()
    same = torch.allclose(got, ref, rtol=1e-3, atol=1e-3)
    print('%s: compiled matches eager: %s (max difference %.2e)'
          % (name, 'yes' if same else 'NO', (got - ref).abs().max().item()), flush=True)
    times = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            step()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / iters)
    print('%s: median %.4f ms per step (min %.4f, max %.4f; %d repeats of %d steps)'
          % (name, statistics.median(times), min(times), max(times), repeats, iters), flush=True)


def main():
    ap = argparse.ArgumentParser(description='torch.compile, clean, timed')
    ap.add_argument('--iters', type=int, default=20)
    ap.add_argument('--repeats', type=int, default=7)
    ap.add_argument('--warmup', type=int, default=3)
    a = ap.parse_args()
    torch.manual_seed(0)
    under_gsan = 'libgsan' in os.environ.get('LD_PRELOAD', '')
    caching = os.environ.get('PYTORCH_NO_CUDA_MEMORY_CACHING')
    print('under gsan: %s; PYTORCH_NO_CUDA_MEMORY_CACHING=%s' % ('yes' if under_gsan else 'no', caching), flush=True)
    mlp = MLP().cuda()
    run('mlp', mlp, torch.randn(8, 512, 1024, device='cuda'), a.iters, a.repeats, a.warmup)
    att = Attention().cuda()
    run('attention', att, torch.randn(16, 256, 512, device='cuda'), a.iters, a.repeats, a.warmup)
    # what the allocator held: nothing when caching is off (each tensor was
    # its own cudaMalloc), the caching allocator's blocks when it is on
    print('PyTorch caching allocator: %s (memory_reserved %d bytes)'
          % ('on' if torch.cuda.memory_reserved() else 'off', torch.cuda.memory_reserved()), flush=True)
    print('compile_clean: done', flush=True)


if __name__ == '__main__':
    main()
