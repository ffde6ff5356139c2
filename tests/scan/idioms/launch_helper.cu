// Idiom: the launch in a host helper that takes the sizes and computes the grid itself,
// void launch_fill(float *d, int start, int len) (common in HeCBench's split host code).
// main checks that the window starts inside the array, not that it ends inside it.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void fill(float *a, int start, int len, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: launch_helper.cu:[[@LINE+1]]:16: warning: out-of-bounds write to 'a' [gsan-scan-oob]
  if (i < len) a[start + i] = v;
  // n = 13, start = 12, len = 3: thread 2 writes a[12 + 2] = a[14] of 13 floats
  // CHECK: note: witness: n=13, start=12, len=3, gridDim.x=1, blockDim.x=128, blockIdx.x=0, threadIdx.x=2: index 14 of 'd' >= size 13
}

static void launch_fill(float *d, int start, int len, float v) {
  int threads = 128;
  int blocks = (len + threads - 1) / threads;
  fill<<<blocks, threads>>>(d, start, len, v);
}

int main(int argc, char **argv) {
  if (argc < 4) return 1;
  int n = atoi(argv[1]), start = atoi(argv[2]), len = atoi(argv[3]);
  if (n < 1 || n > (1 << 24) || start < 0 || start >= n || len < 1 || len > n) return 1;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  launch_fill(d, start, len, 1.0f);
  cudaFree(d);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 1 access
