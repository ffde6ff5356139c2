// cudaMemcpy of 4 bytes more than a managed allocation holds. Managed memory
// stays the driver's (kernels' accesses to it are not checked), but gsan
// tracks it: the copy is refused before it runs and reported with the
// allocation's stack, and the call returns an error.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: memcpy-param-overflow on address
// CHECK: ends 4 bytes after 4000-byte region
// CHECK-NEXT: allocated by host thread T0 here:
// CHECK: #{{[0-9]+}} main {{.*}}managed_memcpy_overflow.cu:24
// CHECK: copy: invalid argument
#include <cstdio>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}

int main() {
  static float h[1001];
  float *m;
  cudaMallocManaged(&m, 1000 * sizeof(float));
  fill<<<4, 256>>>(m, 1000);
  cudaDeviceSynchronize();
  cudaError_t e = cudaMemcpy(h, m, sizeof h, cudaMemcpyDeviceToHost);  // bug: 4004 bytes
  printf("copy: %s\n", cudaGetErrorString(e));
  cudaFree(m);
  return 0;
}
