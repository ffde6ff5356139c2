// Idiom: a launch through cudaLaunchKernel((void *)k, grid, block, args, 0, 0); the guarded
// twin of launch_api.cu: the guard stops below n.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 2 accesses
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void clamp01(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = fminf(fmaxf(a[i], 0.0f), 1.0f);
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
