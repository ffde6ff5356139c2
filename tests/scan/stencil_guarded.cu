// The guarded twin of stencil.cu: the boundary threads return early.
// RUN: %gsan-scan %s | %FileCheck %s
// CHECK-NOT: warning
// CHECK: gsan scan: 0 findings, 0 unknown in 4 accesses
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void stencil(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= 0 || i >= n - 1) return;
  out[i] = in[i - 1] + in[i] + in[i + 1];
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  if (n < 3 || n > (1 << 24)) return 1;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  stencil<<<(n + 255) / 256, 256>>>(in, out, n);
  return 0;
}
