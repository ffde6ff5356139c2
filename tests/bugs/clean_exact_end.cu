// Correct: touches exactly the last element, and keeps a one-past-the-end
// pointer without dereferencing it. No report.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: sum = 1000
#include <cstdio>
__global__ void sum(const int *begin, const int *end, int *out) {
  int s = 0;
  for (const int *p = begin; p != end; ++p) s += *p;
  *out = s;
}
int main() {
  int *a, *out, h[1000], r = 0;
  for (int i = 0; i < 1000; i++) h[i] = 1;
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  sum<<<1, 1>>>(a, a + 1000, out);
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("sum = %d\n", r);
  cudaFree(a);
  cudaFree(out);
  return 0;
}
