// Buffers used in turn (a stencil's ping-pong): the host loop swaps the two
// device pointers after each launch, with std::swap here and through a
// temporary in ping_pong_guarded.cu. An iteration runs with the pointers as
// they came and again swapped; b is one element short, so the swapped launch
// reads in[n - 1] of b. n = 12: thread 10 reads in[11] of b, which has 11.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <utility>
#include <cuda_runtime.h>

__global__ void step(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: ping_pong.cu:[[@LINE+1]]:56: warning: out-of-bounds read of 'in' [gsan-scan-oob]
  if (i > 0 && i < n - 1) out[i] = 0.5f * (in[i - 1] + in[i + 1]);
  // CHECK: note: witness: n=12, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=10: index 11 of 'b' >= size 11 (4-byte elements: byte 44, size 44 bytes)
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int n = atoi(argv[1]), iters = atoi(argv[2]);
  if (n < 3 || n > (1 << 20)) return 1;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, (n - 1) * sizeof(float));
  for (int t = 0; t < iters; t++) {
    step<<<(n + 255) / 256, 256>>>(b, a, n);
    std::swap(a, b);
  }
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 3 accesses
