// Correct: pointers one past the end are formed (loop bounds, an end pointer passed
// as a kernel argument; 4096 bytes, so it is the next slot's start) but never dereferenced.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: total = 1024
#include <cstdio>
__global__ void fill(float *a, int n) {
  float *end = a + n;
  for (float *p = a + threadIdx.x; p < end; p += blockDim.x) *p = 1.0f;
}
__global__ void total(const float *begin, const float *end, float *out) {
  float s = 0.0f;
  for (const float *p = begin; p != end; ++p) s += *p;
  out[0] = s;
}
int main() {
  const int n = 1024;
  float *a, *out, h = 0;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  fill<<<1, 128>>>(a, n);
  total<<<1, 1>>>(a, a + n, out);
  cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("total = %.0f\n", h);
  cudaFree(a);
  cudaFree(out);
  return 0;
}
