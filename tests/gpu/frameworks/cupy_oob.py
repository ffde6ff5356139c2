# CuPy's RawKernel under gsan: CuPy compiles the kernel with NVRTC, and gsan
# run sets CUPY_COMPILE_WITH_PTX=1 so it asks for PTX, which libgsan
# instruments when CuPy loads it (docs/jit.md). A correct launch first, then
# one thread more than the array has writes one element past its end. CuPy's
# memory pool is turned off (set_allocator(None)), as PyTorch's caching is:
# each array is then its own cudaMalloc, with exact bounds.
# Exits 77 with "SKIP: ..." where CuPy is not installed. run.sh runs it as
#   gsan run -- python3 cupy_oob.py
# expects exit status 1 and this output:
# CHECK: under gsan run: CUPY_COMPILE_WITH_PTX=1
# CHECK: clean launch: ok
# CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
# CHECK-NEXT: WRITE of size 4 at
# CHECK-NEXT: #0 {{.*}}fill
# CHECK-NEXT: is located 0 bytes after 4000-byte region
# CHECK-NOT: not reached
import os
import sys

try:
    import cupy
except ImportError as e:
    print('SKIP: CuPy is not installed (%s)' % e, flush=True)
    sys.exit(77)

print('under gsan run: CUPY_COMPILE_WITH_PTX=%s' % os.environ.get('CUPY_COMPILE_WITH_PTX'), flush=True)
cupy.cuda.set_allocator(None)
fill = cupy.RawKernel(r'''
extern "C" __global__ void fill(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) a[i] = 1.0f;  // BUG: i == n is one past the end
}
''', 'fill', options=('-lineinfo',))
a = cupy.zeros(1000, dtype=cupy.float32)
fill((1,), (512,), (a, cupy.int32(1000)))  # threads 0..511: in bounds
cupy.cuda.Device().synchronize()
print('clean launch: %s' % ('ok' if float(a[:512].sum()) == 512.0 else 'WRONG'), flush=True)
fill((4,), (256,), (a, cupy.int32(1000)))  # thread 1000 writes a[1000]
cupy.cuda.Device().synchronize()
print('not reached', flush=True)
