# Exact per-tensor bounds under gsan run's default for PyTorch (its
# cudaMallocAsync backend, each tensor an arena slot, frees in stream order):
# correct work first (a cuBLAS matmul, a masked Triton add, a training step
# of a small net, tensors freed and made again many times), then, by the
# argument:
#   overflow  a Triton store one element past a 1000-float tensor
#   uaf       a Triton load through a deleted tensor's data pointer, queued
#             after its free on the same stream
# run.sh runs it as `gsan run -- python3 tensor_bounds.py overflow|uaf` and
# expects exit status 1 and this output (FileCheck --check-prefixes=CHECK,OVERFLOW or CHECK,UAF):
# CHECK: allocator backend: cudaMallocAsync
# CHECK: clean part: ok
# OVERFLOW: ERROR: GPUSanitizer: global-buffer-overflow on address
# OVERFLOW-NEXT: WRITE of size {{[0-9]+}} at
# OVERFLOW-NEXT: #0 {{.*}}store_one_past{{.*}} at {{.*}}tensor_bounds.py:42
# OVERFLOW-NEXT: is located {{[0-9]+ bytes (after|inside)}} 4000-byte region
# UAF: ERROR: GPUSanitizer: use-after-free on address
# UAF-NEXT: READ of size {{[0-9]+}} at
# UAF-NEXT: #0 {{.*}}load_all{{.*}} at {{.*}}tensor_bounds.py:49
# UAF-NEXT: is located {{[0-9]+}} bytes inside 4000-byte region
# UAF: freed by host thread T0 here:
# UAF: previously allocated by host thread T0 here:
# CHECK-NOT: not reached
import sys

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    tl.store(out + i, tl.load(x + i, mask=m) + tl.load(y + i, mask=m), mask=m)


@triton.jit
def store_one_past(out, n, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    tl.store(out + i, i.to(tl.float32), mask=i <= n)  # BUG: i == n is one past the end


@triton.jit
def load_all(x, out, n, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    m = i < n
    tl.store(out + i, tl.load(x + i, mask=m), mask=m)


class Stale:
    """What Triton takes for a tensor: a data pointer and a dtype."""

    def __init__(self, ptr):
        self.ptr = ptr
        self.dtype = torch.float32

    def data_ptr(self):
        return self.ptr


what = sys.argv[1] if len(sys.argv) > 1 else ''
if what not in ('overflow', 'uaf', 'clean'):
    sys.exit('usage: tensor_bounds.py overflow|uaf|clean')
print('allocator backend: %s' % torch.cuda.memory.get_allocator_backend(), flush=True)
torch.manual_seed(0)
ok = True
net = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).cuda()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(50):  # tensors freed in stream order and made again
    a = torch.randn(256, 256, device='cuda')
    b = torch.randn(256, 256, device='cuda')
    c = a @ b
    s = torch.empty_like(a)
    add[(64,)](a, b, s, a.numel(), BLOCK=1024)
    ok &= bool(torch.equal(s, a + b))
    opt.zero_grad()
    nn.functional.cross_entropy(net(torch.randn(32, 64, device='cuda')), torch.randint(0, 10, (32,), device='cuda')).backward()
    opt.step()
    if step % 10 == 0:
        ok &= torch.allclose(c.cpu(), a.cpu() @ b.cpu(), rtol=1e-3, atol=1e-3)
    del a, b, c, s
torch.cuda.synchronize()
print('clean part: %s' % ('ok' if ok else 'WRONG'), flush=True)
x = torch.zeros(1000, device='cuda')
if what == 'overflow':
    store_one_past[(1,)](x, 1000, BLOCK=1024)  # writes x[1000]
elif what == 'uaf':
    p = x.data_ptr()
    del x  # freed in stream order: the load below is queued after the free
    o = torch.empty(1000, device='cuda')
    load_all[(1,)](Stale(p), o, 1000, BLOCK=1024)
torch.cuda.synchronize()
if what != 'clean':
    print('not reached: the bad access went unreported', flush=True)
