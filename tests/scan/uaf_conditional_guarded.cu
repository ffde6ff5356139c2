// The guarded twin of uaf_conditional.cu: the error path returns after the free.
// RUN: %gsan-scan %s | %FileCheck %s
// CHECK-NOT: warning
// CHECK: gsan scan: 0 findings, 0 unknown in 1 access
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  int retries = atoi(argv[2]);
  if (n < 1 || n > (1 << 20)) return 1;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  if (retries > 3) {
    fprintf(stderr, "too many retries\n");
    cudaFree(d);
    return 1;
  }
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaFree(d);
  return 0;
}
