// One element past a cudaMalloc'd array, written by the last thread.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: WRITE of size 4 at {{.*}} by thread
// CHECK: #0 fill(float*, int) at {{.*}}heap_overflow.cu:16
// CHECK: is located 0 bytes after 4000-byte region
// CHECK: allocated by host thread T0 here:
// CHECK-NEXT: #0 cudaMalloc
// CHECK: main {{.*}}heap_overflow.cu:20
#include <cstdio>
__global__ void fill(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) a[i] = 1.0f;  // bug: i == n is past the end
}
int main() {
  float *a;
  cudaMalloc(&a, 1000 * sizeof(float));
  fill<<<4, 256>>>(a, 1000);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
