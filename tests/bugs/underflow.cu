// a[i - 1] for i == 0: the element before the allocation.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: READ of size 4
// CHECK: #0 diff(float const*, float*, int) at {{.*}}underflow.cu:13
// CHECK: is located 4 bytes before 4096-byte region
#include <cstdio>
__global__ void diff(const float *a, float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = a[i] - a[i - 1];  // BUG: i == 0
}
int main() {
  float *a, *d;
  cudaMalloc(&a, 1024 * sizeof(float));
  cudaMalloc(&d, 1024 * sizeof(float));
  cudaMemset(a, 0, 1024 * sizeof(float));
  diff<<<4, 256>>>(a, d, 1024);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
