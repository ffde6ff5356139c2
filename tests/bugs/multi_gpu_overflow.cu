// Two GPUs: device 0 runs a correct kernel on its allocation, device 1 the
// same kernel one element too far on its own. Each device has its own arena
// and ring; the report names device 1's allocation and where it was made.
// REQUIRES: gpu, multi-gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: device 0: no error
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: WRITE of size 4 at {{.*}} by thread
// CHECK: #0 fill(float*, int, int) at {{.*}}multi_gpu_overflow.cu:21
// CHECK: is located 0 bytes after 4000-byte region
// CHECK: allocated by host thread T0 here:
// CHECK-NEXT: #0 cudaMalloc
// CHECK: main {{.*}}multi_gpu_overflow.cu:32
// CHECK-NOT: device 1: no error
#include <cstdio>
__global__ void fill(float *a, int n, int last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // last == n - 1 is correct; last == n writes one element too far
  if (i <= last) a[i] = 1.0f;
}
int main() {
  float *a, *b;
  cudaSetDevice(0);
  cudaMalloc(&a, 1000 * sizeof(float));
  fill<<<4, 256>>>(a, 1000, 999);
  printf("device 0: %s\n", cudaDeviceSynchronize() == cudaSuccess ? "no error" : "error");
  fflush(stdout);
  cudaFree(a);
  cudaSetDevice(1);
  cudaMalloc(&b, 1000 * sizeof(float));
  fill<<<4, 256>>>(b, 1000, 1000);  // bug: one past the end
  printf("device 1: %s\n", cudaDeviceSynchronize() == cudaSuccess ? "no error" : "error");
  return 0;
}
