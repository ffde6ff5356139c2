// Use after free where the driver would have reused the address for the next
// allocation (compute-sanitizer then sees valid memory); gsan's arena does
// not reuse slots, so the stale pointer still finds its freed slot.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: use-after-free on address
// CHECK: WRITE of size 4
// CHECK: #0 clear(float*, int) at {{.*}}uaf_reused.cu:14
#include <cstdio>
__global__ void clear(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 0.0f;  // BUG: a was freed
}
int main() {
  float *a, *b;
  cudaMalloc(&a, 4096);
  cudaFree(a);
  cudaMalloc(&b, 4096);
  printf("same address as before: %s\n", a == b ? "yes" : "no");
  clear<<<4, 256>>>(a, 1024);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
