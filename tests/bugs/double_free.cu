// cudaFree twice: reported on the host, and the driver's error returned.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: double-free on address
// CHECK: second free: invalid argument
#include <cstdio>
int main() {
  float *a;
  cudaMalloc(&a, 4096);
  cudaFree(a);
  cudaError_t e = cudaFree(a);  // bug
  printf("second free: %s\n", cudaGetErrorString(e));
  return 0;
}
