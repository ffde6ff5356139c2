// cudaMemset past the end of an allocation.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: memset-param-overflow on address
// CHECK: ends 1 bytes after 100-byte region
#include <cstdio>
int main() {
  char *d;
  cudaMalloc(&d, 100);
  cudaError_t e = cudaMemset(d, 0, 101);  // bug
  printf("memset: %s\n", cudaGetErrorString(e));
  cudaFree(d);
  return 0;
}
