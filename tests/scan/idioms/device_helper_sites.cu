// Idiom: one __device__ helper called from two call sites with different arrays and sizes
// (common for load/store helpers in HeCBench kernels). The first call passes the right
// bound; the second passes n for the smaller array of m elements.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__device__ void put(float *dst, int i, int len, float v) {
  // CHECK: device_helper_sites.cu:[[@LINE+1]]:16: warning: out-of-bounds write to 'dst' [gsan-scan-oob]
  if (i < len) dst[i] = v;
  // n = 15, m = 13: thread 14 passes i < n and writes head[14] of 13 floats
  // CHECK: note: witness: n=15, m=13, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=14: index 14 of 'head' >= size 13
}

__global__ void split(const float *in, float *full, float *head, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  put(full, i, n, v);
  put(head, i, n, v);
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int n = atoi(argv[1]), m = atoi(argv[2]);
  if (n < 1 || n > (1 << 24) || m < 1 || m > n) return 1;
  float *in, *full, *head;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&full, n * sizeof(float));
  cudaMalloc(&head, m * sizeof(float));
  split<<<(n + 255) / 256, 256>>>(in, full, head, n, m);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 2 accesses
