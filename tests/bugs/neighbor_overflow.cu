// An index far past the end that lands inside another live allocation:
// valid memory, so compute-sanitizer does not see it; gsan checks against the
// bounds of the pointer's own allocation.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: WRITE of size 4
// CHECK: #0 scatter(float*, int, int) at {{.*}}neighbor_overflow.cu:15
// CHECK: bytes after 4000-byte region
#include <cstdio>
__global__ void scatter(float *a, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i * stride] = 1.0f;  // BUG: stride 2 reaches twice as far
}
int main() {
  float *a, *b;
  cudaMalloc(&a, 1000 * sizeof(float));
  cudaMalloc(&b, 1000 * sizeof(float));
  scatter<<<4, 256>>>(a, 1000, 2);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
