# A Triton kernel whose store is not masked: the last program writes 240
# floats past a 10000-float tensor. With PyTorch's caching allocator off, each
# tensor is its own cudaMalloc, so the bounds are the tensor's (with it on,
# a tensor is a piece of a larger block: the frameworks issue).
# REQUIRES: gpu, torch
# RUN: not env PYTORCH_NO_CUDA_MEMORY_CACHING=1 %gsan run -- %python %s > %t.out 2>&1
# RUN: %FileCheck %s < %t.out
# CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
# CHECK: WRITE of size {{[0-9]+}}
# CHECK: #0 {{.*}}copy{{.*}} at {{.*}}triton_overflow.py:21
import torch
import triton
import triton.language as tl


@triton.jit
def copy(x, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    v = tl.load(x + i, mask=m)
    tl.store(out + i, v)  # BUG: no mask


x = torch.randn(10000, device='cuda')
o = torch.empty_like(x)
copy[(10,)](x, o, 10000, BLOCK=1024)
torch.cuda.synchronize()
print('done')
