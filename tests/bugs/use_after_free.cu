// A kernel reads a buffer that was freed before the launch.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: use-after-free on address
// CHECK: READ of size 4
// CHECK: #0 sum(float const*, float*, int) at {{.*}}use_after_free.cu:18
// CHECK: freed by host thread T0 here:
// CHECK-NEXT: #0 cudaFree
// CHECK: main {{.*}}use_after_free.cu:26
// CHECK: previously allocated by host thread T0 here:
#include <cstdio>
__global__ void sum(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v;
    v = a[i];
    atomicAdd(out, v);
  }
}
int main() {
  float *a, *out;
  cudaMalloc(&a, 1024 * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  cudaFree(a);
  sum<<<4, 256>>>(a, out, 1024);  // bug: a is gone
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
