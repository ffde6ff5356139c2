// Recover mode: built with --recover and run with halt_on_error=0, the 24 bad
// writes of one site are skipped, the kernel finishes, and the site is reported once.
// REQUIRES: gpu
// RUN: env GSAN_PTX_OPTIONS=--recover %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not env GSAN_OPTIONS=halt_on_error=0 %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// RUN: %FileCheck --check-prefix=OUT %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: WRITE of size 4
// CHECK: #0 fill(float*) at {{.*}}recover_mode.cu:18
// CHECK-NOT: ERROR: GPUSanitizer
// CHECK: global-buffer-overflow at {{.*}}recover_mode.cu:18 in {{.*}}: hit 24 times, reported once
// OUT: after: no error
#include <cstdio>
// 8 blocks of 128 threads: 1024 writes into 1000 floats
__global__ void fill(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = 1.0f;  // BUG: threads 1000..1023 write past the end
}
int main() {
  float *a;
  cudaMalloc(&a, 1000 * sizeof(float));
  fill<<<8, 128>>>(a);
  printf("after: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(a);
  return 0;
}
