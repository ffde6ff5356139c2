// Default (halt) mode: the first device error is printed and the process exits
// at once with status 1; the program's own line after the kernel never appears.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK-NOT: still running
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: WRITE of size 4
// CHECK: #0 fill(float*, int) at {{.*}}halt_stops_program.cu:15
// CHECK-NOT: still running
#include <cstdio>
__global__ void fill(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) a[i] = 1.0f;  // BUG: i == n is past the end
}
int main() {
  float *a;
  cudaMalloc(&a, 1000 * sizeof(float));
  fill<<<4, 256>>>(a, 1000);
  cudaDeviceSynchronize();
  fprintf(stderr, "still running\n");  // unbuffered: would show if gsan let it run
  return 0;
}
