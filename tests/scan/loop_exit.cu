// Counters real host code steps in other ways: a while loop that rounds a
// size up to a multiple of 32 (its value after the loop: at least its start,
// a multiple of 32, an opaque value bounded by those facts), and sizes swept
// by N = N * 4. The first launch is proved safe from the rounded size; the
// second, one element past it, is an unknown, never a finding: the facts do
// not say the rounded value is the first multiple of 32. The sweep's kernel
// is off by one at every size: N = 1 gives 1 * 32 floats, and thread 32
// writes the 33rd.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void fill(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: loop_exit.cu:[[@LINE+1]]:14: remark: cannot decide whether the write to 'a' stays in bounds: 'm' has the value the loop at line 32 leaves [gsan-scan-unknown]
  if (i < n) a[i] = 0;
}

__global__ void sweep(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: loop_exit.cu:[[@LINE+1]]:15: warning: out-of-bounds write to 'a' [gsan-scan-oob]
  if (i <= n) a[i] = 1;
  // CHECK: note: witness: gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=32, N=1: index 32 of 'd' >= size 32 (4-byte elements: byte 128, size 128 bytes)
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > 1000000) return 1;
  int m = n;
  while ((m & 31) != 0) m++;
  float *d;
  cudaMalloc(&d, m * sizeof(float));
  fill<<<(m + 255) / 256, 256>>>(d, m);
  fill<<<(m + 255) / 256, 256>>>(d, m + 1);
  cudaFree(d);
  for (int N = 1; N <= 64; N = N * 4) {
    cudaMalloc(&d, N * 32 * sizeof(float));
    sweep<<<(N * 32 + 255) / 256, 256>>>(d, N * 32);
    cudaFree(d);
  }
  return 0;
}
// CHECK: gsan scan: 1 finding, 1 unknown in 2 accesses
