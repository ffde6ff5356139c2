// Stream-ordered allocation: a kernel queued after cudaFreeAsync still uses
// the buffer. The driver's pool would hand the address to the next
// cudaMallocAsync; gsan's free waits for the stream and keeps the slot freed.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: use-after-free on address
// CHECK: WRITE of size 4
// CHECK: #0 scale(float*, int) at {{.*}}async_alloc_uaf.cu:18
// CHECK: freed by host thread T0 here:
// CHECK: main {{.*}}async_alloc_uaf.cu:27
// CHECK: previously allocated by host thread T0 here:
// CHECK: main {{.*}}async_alloc_uaf.cu:24
#include <cstdio>
__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 2.0f;  // BUG: a was freed on the stream before this kernel
}
int main() {
  cudaStream_t s;
  float *a, *b;
  cudaStreamCreate(&s);
  cudaMallocAsync(&a, 1024 * sizeof(float), s);
  cudaMemsetAsync(a, 0, 1024 * sizeof(float), s);
  scale<<<4, 256, 0, s>>>(a, 1024);
  cudaFreeAsync(a, s);
  cudaMallocAsync(&b, 1024 * sizeof(float), s);
  scale<<<4, 256, 0, s>>>(a, 1024);
  printf("kernel: %s\n", cudaGetErrorString(cudaStreamSynchronize(s)));
  cudaFreeAsync(b, s);
  cudaStreamDestroy(s);
  return 0;
}
