// Correct: copies and sets of exactly the allocation's size, at an offset up
// to the end, device to device; everything freed. No report.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: copies: no error
#include <cstdio>
int main() {
  static float h[1000];
  float *a, *b;
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&b, sizeof h);
  cudaError_t e = cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  if (!e) e = cudaMemset(a + 500, 0, 500 * sizeof(float));
  if (!e) e = cudaMemcpy(b, a, sizeof h, cudaMemcpyDeviceToDevice);
  if (!e) e = cudaMemcpy(h + 999, b + 999, sizeof(float), cudaMemcpyDeviceToHost);
  printf("copies: %s\n", cudaGetErrorString(e));
  cudaFree(a);
  cudaFree(b);
  return 0;
}
