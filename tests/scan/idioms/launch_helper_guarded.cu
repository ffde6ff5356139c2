// Idiom: the launch in a host helper that takes the sizes and computes the grid; the
// guarded twin of launch_helper.cu: the window is cut at the end of the array.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 1 access
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void fill(float *a, int start, int len, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < len) a[start + i] = v;
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
  if (len > n - start) len = n - start;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  launch_fill(d, start, len, 1.0f);
  cudaFree(d);
  return 0;
}
