// Correct: dynamic shared memory of exactly blockDim.x floats and 4 ints, carved
// into two arrays, each read up to its exact last element. No report.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: sum = 266
#include <cstdio>
__global__ void carve(const float *in, float *out) {
  extern __shared__ float smem[];
  float *vals = smem;
  int *counts = (int *)(smem + blockDim.x);
  int t = threadIdx.x;
  vals[t] = in[t];
  if (t < 4) counts[t] = t + 1;
  __syncthreads();
  if (t == blockDim.x - 1) {
    float s = 0.0f;
    for (int i = 0; i < (int)blockDim.x; i++) s += vals[i];  // up to vals[blockDim.x - 1]
    for (int i = 0; i < 4; i++) s += counts[i];              // up to counts[3]
    out[0] = s;
  }
}
int main() {
  const int n = 256;
  static float h[n];
  for (int i = 0; i < n; i++) h[i] = 1.0f;
  float *in, *out, s = 0;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  carve<<<1, n, n * sizeof(float) + 4 * sizeof(int)>>>(in, out);
  cudaMemcpy(&s, out, sizeof s, cudaMemcpyDeviceToHost);
  printf("sum = %.0f\n", s);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
