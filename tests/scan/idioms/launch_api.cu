// Idiom: a launch through the runtime API, cudaLaunchKernel((void *)k, grid, block, args,
// shmem, stream) with an array of argument addresses (used where the kernel is chosen at
// run time, and by code generated for cooperative launches). The kernel's guard is one too
// wide: i <= n.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void clamp01(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: launch_api.cu:[[@LINE+2]]:15: warning: out-of-bounds write to 'a' [gsan-scan-oob]
  // n = 15: thread 15 passes i <= n and touches a[15] of 15 floats
  if (i <= n) a[i] = fminf(fmaxf(a[i], 0.0f), 1.0f);
  // CHECK: note: witness: n=15, gridDim.x=1, blockDim.x=128, blockIdx.x=0, threadIdx.x=15: index 15 of 'd' >= size 15
  // CHECK: launch_api.cu:[[@LINE-2]]:34: warning: out-of-bounds read of 'a' [gsan-scan-oob]
  // CHECK: note: witness: n=15, gridDim.x=1, blockDim.x=128, blockIdx.x=0, threadIdx.x=15: index 15 of 'd' >= size 15
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  void *args[] = {&d, &n};
  dim3 grid((n + 127) / 128), block(128);
  cudaLaunchKernel((void *)clamp01, grid, block, args, 0, 0);
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
// CHECK: gsan scan: 2 findings, 0 unknown in 2 accesses
