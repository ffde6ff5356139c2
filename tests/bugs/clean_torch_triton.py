# Correct: PyTorch tensors and a masked Triton kernel, a cuBLAS dot product;
# Triton's PTX goes through gsan (TRITON_PTXAS_PATH). PyTorch's caching
# allocator keeps its blocks and cuBLAS its workspace until exit: the built-in
# suppressions keep those from being reported as leaks.
# REQUIRES: gpu, torch
# RUN: %gsan run -- %python %s > %t.out 2>&1
# RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
# CHECK: triton add: ok, dot: ok
import torch
import triton
import triton.language as tl


@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    tl.store(out + i, tl.load(x + i, mask=m) + tl.load(y + i, mask=m), mask=m)


x = torch.randn(10000, device='cuda')
y = torch.randn(10000, device='cuda')
o = torch.empty_like(x)
add[(10,)](x, y, o, 10000, BLOCK=1024)
d = torch.dot(x, torch.ones_like(x))
torch.cuda.synchronize()
print('triton add: %s, dot: %s' % ('ok' if torch.allclose(o, x + y) else 'WRONG',
                                    'ok' if torch.isclose(d, x.sum(), rtol=1e-3) else 'WRONG'))
