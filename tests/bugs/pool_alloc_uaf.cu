// Memory from an explicit pool (cudaMallocFromPoolAsync) given back with
// cudaFreeAsync, then read by a kernel queued after the free on the same stream.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: use-after-free on address
// CHECK: READ of size 4
// CHECK: #0 twice(float const*, float*, int) at {{.*}}pool_alloc_uaf.cu:13
#include <cstdio>
__global__ void twice(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * a[i];  // BUG: a went back to the pool before this kernel
}
int main() {
  const int n = 1024;
  cudaMemPool_t pool;
  cudaStream_t s;
  float *a, *out;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  cudaStreamCreate(&s);
  cudaMalloc(&out, n * sizeof(float));
  cudaMallocFromPoolAsync(&a, n * sizeof(float), pool, s);
  cudaMemsetAsync(a, 0, n * sizeof(float), s);
  cudaFreeAsync(a, s);
  twice<<<n / 256, 256, 0, s>>>(a, out, n);
  printf("kernel: %s\n", cudaGetErrorString(cudaStreamSynchronize(s)));
  cudaFree(out);
  cudaStreamDestroy(s);
  return 0;
}
