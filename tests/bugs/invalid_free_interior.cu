// cudaFree of a pointer 16 floats into a live allocation, not its start:
// reported, the call fails, and the program then frees the real start.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: invalid-free on address
// CHECK: cuMemFree(
// CHECK: #{{[0-9]+}} main {{.*}}invalid_free_interior.cu:16
// CHECK: interior free: invalid argument
// CHECK: real free: no error
#include <cstdio>
int main() {
  float *p;
  cudaMalloc(&p, 4096);
  cudaError_t e = cudaFree(p + 16);  // BUG: p + 16 is inside the allocation
  printf("interior free: %s\n", cudaGetErrorString(e));
  printf("real free: %s\n", cudaGetErrorString(cudaFree(p)));
  return 0;
}
