# gsan's own allocator for PyTorch: gsan_torch_malloc and gsan_torch_free
# through torch.cuda.memory.CUDAPluggableAllocator ('libgsan.so' is the
# library gsan run preloaded, found by its soname). Correct work first (a
# cuBLAS matmul, a masked Triton add, tensors freed and made again), then a
# Triton kernel whose store is not masked writes past a 10000-float tensor:
# the report gives the tensor's exact size, and the allocation's stack goes
# through PyTorch's pluggable allocator. run.sh runs it as
#   PYTORCH_NO_CUDA_MEMORY_CACHING=1 gsan run -- python3 pluggable.py (gsan's default backend: PyTorch refuses)
# expects exit status 1 and this output:
# CHECK: allocator: gsan_torch_malloc
# CHECK: clean part: ok
# CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
# CHECK-NEXT: WRITE of size {{[0-9]+}} at
# CHECK-NEXT: #0 {{.*}}copy{{.*}} at {{.*}}pluggable.py:40
# CHECK-NEXT: is located {{[0-9]+}} bytes after 40000-byte region
# CHECK-NEXT: allocated by host thread T0 here:
# CHECK: CUDAPluggableAllocator
# CHECK: SUMMARY: GPUSanitizer: global-buffer-overflow
# CHECK-NOT: not reached
import torch
import triton
import triton.language as tl

alloc = torch.cuda.memory.CUDAPluggableAllocator('libgsan.so', 'gsan_torch_malloc', 'gsan_torch_free')
torch.cuda.memory.change_current_allocator(alloc)
print('allocator: gsan_torch_malloc', flush=True)


@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    tl.store(out + i, tl.load(x + i, mask=m) + tl.load(y + i, mask=m), mask=m)


@triton.jit
def copy(x, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + i, mask=i < n)
    tl.store(out + i, v)  # BUG: no mask


torch.manual_seed(0)
ok = True
for _ in range(3):  # tensors freed (stream-ordered, to gsan) and made again
    a = torch.randn(256, 256, device='cuda')
    b = torch.randn(256, 256, device='cuda')
    c = a @ b
    ok &= torch.allclose(c.cpu(), a.cpu() @ b.cpu(), rtol=1e-3, atol=1e-3)
    s = torch.empty_like(a)
    add[(64,)](a, b, s, a.numel(), BLOCK=1024)
    ok &= torch.equal(s, a + b)
    del a, b, c, s
torch.cuda.synchronize()
print('clean part: %s' % ('ok' if ok else 'WRONG'), flush=True)
x = torch.randn(10000, device='cuda')
o = torch.empty_like(x)
copy[(10,)](x, o, 10000, BLOCK=1024)  # the last program writes 240 floats past o
torch.cuda.synchronize()
print('not reached: the write past the tensor went unreported', flush=True)
