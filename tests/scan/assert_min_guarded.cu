// The guarded twin of assert_min.cu: assert(i < n) and min(i, n - 1). The
// assert's failing branch ends the thread, so the path after it has i < n.
// RUN: %gsan-scan %s | %FileCheck %s
// CHECK-NOT: warning
// CHECK: gsan scan: 0 findings, 0 unknown in 2 accesses
#include <cassert>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void gather(const float *in, float *out, const int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  assert(i < n);
  out[i] = in[min(i, n - 1)];
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
