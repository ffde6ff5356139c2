// cudaFree of a host malloc() pointer, which is no device memory at all:
// reported, the call returns an error, and the program goes on.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: invalid-free on address
// CHECK: cuMemFree(
// CHECK: #{{[0-9]+}} main {{.*}}invalid_free_host.cu:17
// CHECK: host free: {{.+}}
#include <cstdio>
#include <cstdlib>
int main() {
  float *d;
  cudaMalloc(&d, 256);  // a device allocation first: gsan is set up
  float *h = (float *)malloc(256);
  cudaError_t e = cudaFree(h);  // BUG: h is host memory
  printf("host free: %s\n", cudaGetErrorString(e));
  free(h);
  cudaFree(d);
  return 0;
}
