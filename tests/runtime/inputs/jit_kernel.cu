// The kernel tests/runtime/jit.test compiles to PTX (as NVRTC would) and
// loads through the fake driver: one store, checked, at line 5.
extern "C" __global__ void fill(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) a[i] = 1.0f;
}
