// Correct: copies and a kernel on a stream, memset and readback, all in bounds.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: value = 3
#include <cstdio>
__global__ void add(int *a, int v) { a[threadIdx.x] += v; }
int main() {
  cudaStream_t s;
  int *a, h[64], r = 0;
  for (int i = 0; i < 64; i++) h[i] = 1;
  cudaStreamCreate(&s);
  cudaMalloc(&a, sizeof h);
  cudaMemcpyAsync(a, h, sizeof h, cudaMemcpyHostToDevice, s);
  add<<<1, 64, 0, s>>>(a, 2);
  cudaMemcpyAsync(&r, a + 63, sizeof r, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  printf("value = %d\n", r);
  cudaFree(a);
  cudaStreamDestroy(s);
  return 0;
}
