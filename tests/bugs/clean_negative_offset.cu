// Correct: a pointer into the middle, indexed with negative offsets that stay
// inside the allocation.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: sum = 200
#include <cstdio>
__global__ void around(const int *mid, int *out) {
  int s = 0;
  for (int k = -100; k < 100; k++) s += mid[k];
  *out = s;
}
int main() {
  int h[200], *a, *out, s = 0;
  for (int i = 0; i < 200; i++) h[i] = 1;
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  around<<<1, 1>>>(a + 100, out);
  cudaMemcpy(&s, out, sizeof s, cudaMemcpyDeviceToHost);
  printf("sum = %d\n", s);
  cudaFree(a);
  cudaFree(out);
  return 0;
}
