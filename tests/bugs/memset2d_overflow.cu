// cudaMemset2D over two rows more than cudaMallocPitch gave: refused before it
// runs, and the call returns an error.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: memset-param-overflow on address
// CHECK: cuMemsetD2D8{{.*}}
// CHECK: #{{[0-9]+}} main {{.*}}memset2d_overflow.cu:17
// CHECK: set2d: invalid argument
#include <cstdio>
int main() {
  const size_t W = 300, H = 10;  // bytes per row, rows
  char *d;
  size_t pitch;
  cudaMallocPitch(&d, &pitch, W, H);
  cudaError_t e = cudaMemset2D(d, pitch, 0, W, H + 2);  // BUG: H + 2 rows of H
  printf("set2d: %s\n", cudaGetErrorString(e));
  cudaFree(d);
  return 0;
}
