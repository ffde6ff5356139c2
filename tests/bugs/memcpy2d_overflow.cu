// cudaMemcpy2D of one row more than cudaMallocPitch gave: the last row lies past
// the allocation; refused before it runs, and the call returns an error.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: memcpy-param-overflow on address
// CHECK: cuMemcpy2D{{.*}}
// CHECK: #{{[0-9]+}} main {{.*}}memcpy2d_overflow.cu:18
// CHECK: copy2d: invalid argument
#include <cstdio>
int main() {
  const size_t W = 400, H = 8;  // bytes per row, rows
  static char h[W * (H + 1)];
  char *d;
  size_t pitch;
  cudaMallocPitch(&d, &pitch, W, H);
  cudaError_t e = cudaMemcpy2D(d, pitch, h, W, W, H + 1, cudaMemcpyHostToDevice);  // BUG: H + 1 rows
  printf("copy2d: %s\n", cudaGetErrorString(e));
  cudaFree(d);
  return 0;
}
