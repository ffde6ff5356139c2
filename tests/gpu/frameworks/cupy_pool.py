# A correct CuPy program with CuPy's memory pool left on, as CuPy ships: the
# pool keeps its blocks until the process ends, by design, so gsan must not
# call them leaks (a built-in rule names CuPy's pool, cupy/cuda/memory*.so).
# The RawKernel stays in bounds. Exits 77 with "SKIP: ..." without CuPy.
# run.sh runs it as
#   gsan run -- python3 cupy_pool.py
# expects exit status 0 and this output, with no report:
# CHECK: pool: on
# CHECK: sum: 1000.0
# CHECK-NOT: GPUSanitizer
import sys

try:
    import cupy
except ImportError as e:
    print('SKIP: CuPy is not installed (%s)' % e, flush=True)
    sys.exit(77)

print('pool: %s' % ('on' if cupy.get_default_memory_pool().used_bytes() >= 0 else '?'), flush=True)
fill = cupy.RawKernel(r'''
extern "C" __global__ void fill(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 1.0f;
}
''', 'fill')
a = cupy.zeros(1000, dtype=cupy.float32)
b = cupy.zeros(77, dtype=cupy.float32)  # a second array in the pool
fill((4,), (256,), (a, cupy.int32(1000)))
cupy.cuda.Device().synchronize()
print('sum: %s' % float(a.sum()), flush=True)
