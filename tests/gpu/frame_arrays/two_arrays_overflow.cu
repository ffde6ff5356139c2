// Two local arrays in one thread's frame: a histogram whose index reaches 20
// writes into the array after it (the issue's case). Bounded by the whole
// frame (the default) the stray writes stay inside it and are not seen; with
// --frame-arrays each array has its own bounds and the first is reported.
// REQUIRES: gpu
// RUN: env GSAN_PTX_OPTIONS=--frame-arrays %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// RUN: env GSAN_PTX_OPTIONS=--frame-arrays %gsan nvcc -G -arch=%arch -o %t.G %s -lcuda
// RUN: not %gsan run -- %t.G > %t.G.out 2>&1
// RUN: %FileCheck %s < %t.G.out
// CHECK: ERROR: GPUSanitizer: local-buffer-overflow on address
// CHECK: of size 4 at {{.*}} by thread ({{[0-9]+}},0,0) block (0,0,0)
// CHECK: #0 count(int const*, int*, int) at {{.*}}two_arrays_overflow.cu:[[@LINE+12]]
// CHECK: 64-byte local variable
#include <cstdio>
__global__ void count(const int *in, int *out, int n) {
  int hist[16];
  int last[16];
  for (int i = 0; i < 16; i++) {
    hist[i] = 0;
    last[i] = -1;
  }
  for (int i = 0; i < n; i++) {
    int v = in[threadIdx.x * n + i];
    hist[v % 20]++;  // BUG: 20 bins counted in 16
    last[v % 16] = i;
  }
  int s = 0;
  for (int i = 0; i < 16; i++) s += hist[i] * last[i];
  out[threadIdx.x] = s;
}
int main() {
  const int n = 64, threads = 32;
  int h[n * threads];
  for (int i = 0; i < n * threads; i++) h[i] = (i * 7) % 20;
  int *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, threads * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  count<<<1, threads>>>(in, out, n);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
