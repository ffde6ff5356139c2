// Idiom: one __device__ helper called from two call sites with different arrays and sizes;
// the guarded twin of device_helper_sites.cu: each call passes its own array's size.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 2 accesses
#include <cstdlib>
#include <cuda_runtime.h>

__device__ void put(float *dst, int i, int len, float v) {
  if (i < len) dst[i] = v;
}

__global__ void split(const float *in, float *full, float *head, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  put(full, i, n, v);
  put(head, i, m, v);
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
