// Two GPUs used correctly: each allocates, fills and reads back its own
// buffer, device 0 copies device 1's buffer with cudaMemcpyPeer, every
// buffer is freed from the other device's context. Nothing is reported.
// REQUIRES: gpu, multi-gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: device 0: 1000 elements of 1
// CHECK-NEXT: device 1: 1000 elements of 2
// CHECK-NEXT: peer copy: 1000 elements of 2
// CHECK-NOT: GPUSanitizer
#include <cstdio>
__global__ void fill(float *a, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}
static int count(const float *h, int n, float v) {
  int k = 0;
  for (int i = 0; i < n; i++) k += h[i] == v;
  return k;
}
int main() {
  const int n = 1000;
  static float h[n];
  float *buf[2], *copy;
  for (int d = 0; d < 2; d++) {
    cudaSetDevice(d);
    cudaMalloc(&buf[d], n * sizeof(float));
    fill<<<4, 256>>>(buf[d], n, (float)(d + 1));
    cudaMemcpy(h, buf[d], n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("device %d: %d elements of %d\n", d, count(h, n, (float)(d + 1)), d + 1);
  }
  cudaSetDevice(0);
  cudaMalloc(&copy, n * sizeof(float));
  cudaMemcpyPeer(copy, 0, buf[1], 1, n * sizeof(float));
  cudaMemcpy(h, copy, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("peer copy: %d elements of 2\n", count(h, n, 2.0f));
  cudaFree(copy);
  cudaFree(buf[1]);  // device 1's buffer, freed with device 0 current
  cudaSetDevice(1);
  cudaFree(buf[0]);
  return 0;
}
