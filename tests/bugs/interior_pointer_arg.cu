// A kernel given a pointer into the middle of an allocation: the bounds are
// still the whole allocation's, and the overflow is past its end.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: WRITE of size 4
// CHECK: #0 tail(float*, int) at {{.*}}interior_pointer_arg.cu:14
// CHECK: is located 0 bytes after 4000-byte region
#include <cstdio>
__global__ void tail(float *half, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) half[i] = 0.0f;  // BUG: i == n
}
int main() {
  float *a;
  cudaMalloc(&a, 1000 * sizeof(float));
  tail<<<2, 256>>>(a + 500, 500);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
