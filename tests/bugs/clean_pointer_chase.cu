// Correct: pointers stored in device memory, followed within their bounds.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: total = 400
#include <cstdio>
__global__ void sum_rows(float *const *rows, int len, float *out) {
  float s = 0;
  for (int k = 0; k < len; k++) s += rows[threadIdx.x][k];
  atomicAdd(out, s);
}
int main() {
  float *rows[4], **d_rows, *out, h[100], total = 0;
  for (int k = 0; k < 100; k++) h[k] = 1.0f;
  for (int k = 0; k < 4; k++) {
    cudaMalloc(&rows[k], sizeof h);
    cudaMemcpy(rows[k], h, sizeof h, cudaMemcpyHostToDevice);
  }
  cudaMalloc(&d_rows, sizeof rows);
  cudaMalloc(&out, sizeof(float));
  cudaMemset(out, 0, sizeof(float));
  cudaMemcpy(d_rows, rows, sizeof rows, cudaMemcpyHostToDevice);
  sum_rows<<<1, 4>>>(d_rows, 100, out);
  cudaMemcpy(&total, out, sizeof total, cudaMemcpyDeviceToHost);
  printf("total = %.0f\n", total);
  for (int k = 0; k < 4; k++) cudaFree(rows[k]);
  cudaFree(d_rows);
  cudaFree(out);
  return 0;
}
