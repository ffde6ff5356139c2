// Copying back from a buffer after freeing it.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: use-after-free on address
// CHECK: cuMemcpy{{[A-Za-z]*}} of 256 bytes
#include <cstdio>
int main() {
  int h[64];
  int *d;
  cudaMalloc(&d, sizeof h);
  cudaFree(d);
  cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);  // bug
  printf("copy: %s\n", cudaGetErrorString(e));
  return 0;
}
