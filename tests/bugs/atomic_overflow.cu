// A histogram whose bin index reaches nbins: an atomic past the end.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: ATOMIC of size 4
// CHECK: #0 inlined code at {{.*}}device_atomic_functions.hpp:{{[0-9]+}}
// CHECK-NEXT: #1 histogram(int const*, int*, int, int) at {{.*}}atomic_overflow.cu:14
// CHECK: is located 0 bytes after 64-byte region
#include <cstdio>
__global__ void histogram(const int *v, int *bins, int n, int nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[v[i] * nbins / 100], 1);  // BUG: v == 100 gives bin nbins
}
int main() {
  int h[256], *v, *bins;
  for (int i = 0; i < 256; i++) h[i] = i % 101;
  cudaMalloc(&v, sizeof h);
  cudaMalloc(&bins, 16 * sizeof(int));
  cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, 16 * sizeof(int));
  histogram<<<1, 256>>>(v, bins, 256, 16);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
