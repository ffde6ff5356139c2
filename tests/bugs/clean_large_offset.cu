// Correct: the last element of a 3 GiB allocation, reached with a 64-bit offset.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: last = 7
#include <cstdio>
__global__ void touch_last(char *a, size_t n) { a[n - 1] = 7; }
int main() {
  size_t n = 3ull << 30;
  char *a, last = 0;
  if (cudaMalloc(&a, n) != cudaSuccess) return 2;
  touch_last<<<1, 1>>>(a, n);
  cudaMemcpy(&last, a + n - 1, 1, cudaMemcpyDeviceToHost);
  printf("last = %d\n", last);
  cudaFree(a);
  return 0;
}
