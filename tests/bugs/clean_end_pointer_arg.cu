// Correct: a kernel gets [begin, end) of a 4096-byte allocation (a power of
// two) and reads end[-1]; the end pointer is one past the allocation, where
// the next one may start, yet its bounds must still be this allocation's.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: last = 1023, first = 0
#include <cstdio>
__global__ void ends(const int *begin, const int *end, int *out) {
  out[0] = end[-1];
  out[1] = *begin;
}
int main() {
  int *a, *b, *out, h[1024], r[2];
  for (int i = 0; i < 1024; i++) h[i] = i;
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&b, sizeof h); /* a neighbour that could start where a ends */
  cudaMalloc(&out, sizeof r);
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  ends<<<1, 1>>>(a, a + 1024, out);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("last = %d, first = %d\n", r[0], r[1]);
  cudaFree(a);
  cudaFree(b);
  cudaFree(out);
  return 0;
}
