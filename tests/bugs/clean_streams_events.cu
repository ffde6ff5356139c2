// Correct: two streams ordered by events both ways (s1 waits for s2's kernel,
// s2 waits for s1's), async copies of exact sizes, cudaEventSynchronize. No report.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: result = 20480
#include <cstdio>
__global__ void scale(float *a, int n, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= k;
}
__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
int main() {
  const int n = 4096;
  static float h[n], r[n];
  for (int i = 0; i < n; i++) h[i] = 1.0f;
  float *a, *b, *c;
  cudaStream_t s1, s2;
  cudaEvent_t b_ready, c_ready, done;
  cudaMalloc(&a, sizeof h), cudaMalloc(&b, sizeof h), cudaMalloc(&c, sizeof h);
  cudaStreamCreate(&s1), cudaStreamCreate(&s2);
  cudaEventCreate(&b_ready), cudaEventCreate(&c_ready), cudaEventCreate(&done);
  cudaMemcpyAsync(a, h, sizeof h, cudaMemcpyHostToDevice, s1);
  scale<<<n / 256, 256, 0, s1>>>(a, n, 2.0f);
  cudaMemcpyAsync(b, h, sizeof h, cudaMemcpyHostToDevice, s2);
  scale<<<n / 256, 256, 0, s2>>>(b, n, 3.0f);
  cudaEventRecord(b_ready, s2);
  cudaStreamWaitEvent(s1, b_ready, 0);
  add<<<n / 256, 256, 0, s1>>>(a, b, c, n);
  cudaEventRecord(c_ready, s1);
  cudaStreamWaitEvent(s2, c_ready, 0);
  cudaMemcpyAsync(r, c, sizeof r, cudaMemcpyDeviceToHost, s2);
  cudaEventRecord(done, s2);
  cudaEventSynchronize(done);
  float sum = 0;
  for (int i = 0; i < n; i++) sum += r[i];
  printf("result = %.0f\n", sum);
  cudaFree(a), cudaFree(b), cudaFree(c), cudaStreamDestroy(s1), cudaStreamDestroy(s2);
  return 0;
}
