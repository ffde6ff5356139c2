// Guards written as assert and as min(): assert(i <= n) lets i = n through,
// and the clamp min(i, n) does not clamp to the last element (n = 15, i = 15).
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cassert>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void gather(const float *in, float *out, const int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i <= n);
  // CHECK: assert_min.cu:[[@LINE+1]]:3: warning: out-of-bounds write to 'out' [gsan-scan-oob]
  out[i] = in[min(i, n)];
  // CHECK: note: witness: n=15, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=15: index 15 >= size 15
  // CHECK: assert_min.cu:[[@LINE-2]]:12: warning: out-of-bounds read of 'in' [gsan-scan-oob]
  // CHECK: note: witness: n=15, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=15: index 15 >= size 15
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 20)) return 1;
  float *in, *out;
  int *idx;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&idx, n * sizeof(int));
  gather<<<(n + 255) / 256, 256>>>(in, out, idx, n);
  return 0;
}
// CHECK: gsan scan: 2 findings, 0 unknown in 2 accesses
