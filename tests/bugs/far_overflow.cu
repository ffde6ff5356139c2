// An index far past its allocation: i = (b - a) + 8, megabytes on, is inside
// the live b under the plain driver, so nothing faults; a's bounds catch it.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: {{global-buffer-overflow|wild-pointer}} on address
// CHECK: WRITE of size 4
// CHECK: #0 poke({{.*}}) at {{.*}}far_overflow.cu:14
#include <cstdint>
#include <cstdio>
__global__ void poke(float *a, int64_t i, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) a[i + t] = 1.0f;  // BUG: i is b's offset from a, not an index into a
}
int main() {
  float *a, *gap, *b;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&gap, 4 << 20);
  cudaMalloc(&b, 1 << 20);
  int64_t i = ((intptr_t)b - (intptr_t)a) / (int64_t)sizeof(float) + 8;
  poke<<<1, 32>>>(a, i, 32);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(a);
  cudaFree(gap);
  cudaFree(b);
  return 0;
}
