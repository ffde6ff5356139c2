# Training steps of two small PyTorch models, timed: a convolutional net
# (CIFAR-sized images) and a transformer block (causal attention and an
# MLP), each eager and torch.compile'd. A step is forward, backward and an
# optimizer step; CUDA events around --iters steps, the median of --repeats
# such runs, after --warmup steps (which compile). Every tensor of a step is
# made and freed by whatever allocator PyTorch has: its caching allocator
# natively; under `gsan run`, gsan's own (bench/torch_train.sh runs both and
# compares). Prints, per model and mode:
#   conv eager: median 2.104 ms per step (7 runs of 20 steps)
# and the allocator PyTorch used. --allocator gsan installs gsan's allocator
# by hand (as a program would); --models / --modes pick a subset.
import argparse
import statistics
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.c1 = nn.Conv2d(3, 64, 3, padding=1)
        self.b1 = nn.BatchNorm2d(64)
        self.c2 = nn.Conv2d(64, 128, 3, padding=1)
        self.b2 = nn.BatchNorm2d(128)
        self.c3 = nn.Conv2d(128, 256, 3, padding=1)
        self.b3 = nn.BatchNorm2d(256)
        self.fc = nn.Linear(256, classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.b1(self.c1(x))), 2)
        x = F.max_pool2d(F.relu(self.b2(self.c2(x))), 2)
        x = F.relu(self.b3(self.c3(x)))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class Block(nn.Module):
    """A pre-norm transformer block: causal attention written out (so that
    Inductor makes Triton kernels of its softmax) and a GELU MLP."""

    def __init__(self, d=256, heads=4, context=128):
        super().__init__()
        self.heads = heads
        self.n1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.n2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)
        self.head = nn.Linear(d, 1)
        self.register_buffer('mask', torch.tril(torch.ones(context, context, dtype=torch.bool)))

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.n1(x)).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (c // self.heads) ** -0.5
        att = att.masked_fill(~self.mask[:t, :t], float('-inf'))
        y = F.softmax(att, dim=-1) @ v
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, c))
        x = x + self.fc2(F.gelu(self.fc1(self.n2(x))))
        return self.head(x).squeeze(-1)


def make(name):
    torch.manual_seed(0)
    if name == 'conv':
        model = ConvNet().cuda()
        x = torch.randn(64, 3, 32, 32, device='cuda')
        y = torch.randint(0, 10, (64,), device='cuda')
        loss = lambda out: F.cross_entropy(out, y)  # noqa: E731
    else:
        model = Block().cuda()
        x = torch.randn(16, 128, 256, device='cuda')
        y = torch.randn(16, 128, device='cuda')
        loss = lambda out: F.mse_loss(out, y)  # noqa: E731
    return model, x, loss


def timed(name, mode, args):
    model, x, loss = make(name)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    fwd = torch.compile(model) if mode == 'compiled' else model

    def step():
        opt.zero_grad(set_to_none=True)
        loss(fwd(x)).backward()
        opt.step()

    for _ in range(args.warmup):
        step()
    torch.cuda.synchronize()
    runs = []
    for _ in range(args.repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(args.iters):
            step()
        end.record()
        end.synchronize()
        runs.append(start.elapsed_time(end) / args.iters)
    print('%s %s: median %.3f ms per step (%d runs of %d steps; min %.3f, max %.3f)' %
          (name, mode, statistics.median(runs), args.repeats, args.iters, min(runs), max(runs)), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--models', default='conv,block', help='comma-separated: conv, block')
    ap.add_argument('--modes', default='eager,compiled', help='comma-separated: eager, compiled')
    ap.add_argument('--iters', type=int, default=20)
    ap.add_argument('--repeats', type=int, default=7)
    ap.add_argument('--warmup', type=int, default=3)
    ap.add_argument('--allocator', choices=('pytorch', 'gsan'), default='pytorch',
                    help="gsan: install gsan's allocator by hand (libgsan.so must be loaded: gsan run)")
    args = ap.parse_args()
    if args.allocator == 'gsan':
        alloc = torch.cuda.memory.CUDAPluggableAllocator('libgsan.so', 'gsan_torch_malloc', 'gsan_torch_free')
        torch.cuda.memory.change_current_allocator(alloc)
    torch.backends.cudnn.benchmark = False
    for name in args.models.split(','):
        if name not in ('conv', 'block'):
            sys.exit('torch_train.py: no model %r (conv, block)' % name)
        for mode in args.modes.split(','):
            if mode not in ('eager', 'compiled'):
                sys.exit('torch_train.py: no mode %r (eager, compiled)' % mode)
            timed(name, mode, args)
    print('allocator: %s' % torch.cuda.get_allocator_backend(), flush=True)


if __name__ == '__main__':
    main()
