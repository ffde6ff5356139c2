// cudaMemcpyPeer (device 0 to device 0) of 256 bytes more than the destination
// holds: refused before it runs, and the call returns an error.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: memcpy-param-overflow on address
// CHECK: cuMemcpyPeer{{.*}}
// CHECK: #{{[0-9]+}} main {{.*}}memcpy_peer_overflow.cu:18
// CHECK: peer copy: invalid argument
#include <cstdio>
int main() {
  const size_t n = 4096;
  char *dst, *src;
  cudaMalloc(&dst, n);
  cudaMalloc(&src, n + 256);
  cudaMemset(src, 1, n + 256);
  cudaError_t e = cudaMemcpyPeer(dst, 0, src, 0, n + 256);  // BUG: dst holds n bytes
  printf("peer copy: %s\n", cudaGetErrorString(e));
  cudaFree(dst);
  cudaFree(src);
  return 0;
}
