// Correct: cudaMemcpyPeer of exactly the allocations' size, device 0 to device 0,
// and the data read back matches. No report.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: peer: ok
#include <cstdio>
#include <cstring>
int main() {
  const size_t n = 4096 + 256;
  static char h[n], back[n];
  for (size_t i = 0; i < n; i++) h[i] = (char)(i * 7);
  char *src, *dst;
  cudaMalloc(&src, n);
  cudaMalloc(&dst, n);
  cudaError_t e = cudaMemcpy(src, h, n, cudaMemcpyHostToDevice);
  if (!e) e = cudaMemcpyPeer(dst, 0, src, 0, n);
  if (!e) e = cudaMemcpy(back, dst, n, cudaMemcpyDeviceToHost);
  printf("peer: %s\n", e ? cudaGetErrorString(e) : memcmp(h, back, n) ? "data differs" : "ok");
  cudaFree(src);
  cudaFree(dst);
  return 0;
}
