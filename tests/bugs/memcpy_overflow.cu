// cudaMemcpy of 4 bytes more than the destination holds: refused before it
// runs, reported, and the call returns an error.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: memcpy-param-overflow on address
// CHECK: ends 4 bytes after 4000-byte region
// CHECK: copy: invalid argument
#include <cstdio>
int main() {
  static float h[1001];
  float *d;
  cudaMalloc(&d, 1000 * sizeof(float));
  cudaError_t e = cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);  // bug: 4004 bytes
  printf("copy: %s\n", cudaGetErrorString(e));
  cudaFree(d);
  return 0;
}
