// The grid is rounded up to whole blocks of 256 threads, the kernel has no
// guard: whenever n is not a multiple of 256 the last block runs past the end
// (n = 15: one block of 256 threads, thread 15 is the first past the end).
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void saxpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: missing_guard.cu:[[@LINE+1]]:3: warning: out-of-bounds write to 'y' [gsan-scan-oob]
  y[i] = a * x[i] + y[i];
  // CHECK: note: 'd_y' allocated here with size n * 4 bytes
  // CHECK: note: kernel 'saxpy' launched here
  // CHECK: note: witness: n=15, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=15: index 15 of 'd_y' >= size 15
  // CHECK: missing_guard.cu:[[@LINE-4]]:14: warning: out-of-bounds read of 'x' [gsan-scan-oob]
  // CHECK: note: witness: n=15, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=15: index 15 of 'd_x' >= size 15
  // CHECK: missing_guard.cu:[[@LINE-6]]:21: warning: out-of-bounds read of 'y' [gsan-scan-oob]
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 26)) return 1;
  float *d_x, *d_y;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_y, n * sizeof(float));
  saxpy<<<(n + 255) / 256, 256>>>(d_y, d_x, 2.0f, n);
  return 0;
}
// CHECK: gsan scan: 3 findings, 0 unknown in 3 accesses
