// A three-point stencil whose guard lets the first and the last thread
// through: in[i - 1] reads before the start, in[i + 1] past the end.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void stencil(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // CHECK: stencil.cu:[[@LINE+4]]:12: warning: out-of-bounds read of 'in' [gsan-scan-oob]
  // CHECK: note: witness: n=14, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=0: index -1 < 0
  // CHECK: stencil.cu:[[@LINE+2]]:32: warning: out-of-bounds read of 'in' [gsan-scan-oob]
  // CHECK: note: witness: n=15, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=14: index 15 >= size 15
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
// CHECK: gsan scan: 2 findings, 0 unknown in 4 accesses
