// What nvcc accepts without a declaration or an include, and clang does not:
// CUDA 12.8's scoped atomics (checked as atomic accesses, like atomicAdd) and
// 'register' in C++17. The histogram has bins entries and thread i adds to bin
// i % (bins + 1): bin bins is one past the end (bins = 6, n = 16: thread 13
// adds to hist[13 % 7] = hist[6]).
// RUN: not %gsan-scan %s -- -std=c++17 > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void histo(unsigned *hist, int n, int bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  register int b = i % (bins + 1);
  // CHECK: nvcc_builtins.cu:[[@LINE+1]]:26: warning: out-of-bounds atomic access to 'hist' [gsan-scan-oob]
  __nv_atomic_fetch_add(&hist[b], 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  // CHECK: note: witness: n=16, bins=6, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=13: index 6 of 'd' >= size 6 (4-byte elements: byte 24, size 24 bytes)
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int n = atoi(argv[1]), bins = atoi(argv[2]);
  if (n < 1 || n > (1 << 24) || bins < 1 || bins > 4096) return 1;
  unsigned *d;
  cudaMalloc(&d, bins * sizeof(unsigned));
  histo<<<(n + 255) / 256, 256>>>(d, n, bins);
  cudaFree(d);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 1 access
