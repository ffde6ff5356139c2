// A local array written one past its end through a run-time index.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: local-buffer-overflow on address
// CHECK: WRITE of size 4
// CHECK: #0 hist(int const*, int*, int) at {{.*}}local_overflow.cu:15
// CHECK: is located 0 bytes after 1024-byte local variable
#include <cstdio>
__global__ void hist(const int *in, int *out, int extra) {
  int h[256];
  for (int k = 0; k < 256; k++) h[k] = 0;
  int v = in[threadIdx.x] & 255;
  h[v + extra] = 1;  // BUG: v == 255, extra == 1
  int s = 0;
  for (int k = 0; k < 256; k++) s += h[k] * k;
  out[threadIdx.x] = s;
}
int main() {
  int *in, *out, h[32];
  for (int i = 0; i < 32; i++) h[i] = 255;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  hist<<<1, 32>>>(in, out, 1);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
