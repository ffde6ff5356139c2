// Idiom: a __constant__ scalar initialised and never written (a mask, a
// table size) bounds an index in a kernel, and a static host global sizes the
// buffers: nothing in the unit writes either, so each is its initial value.
// `bins[v & mask]` stays within the 16 bins, every copy is of N floats
// into N-float buffers, and `threads` (in an unnamed namespace) ints are set
// in a 256-int buffer. The buggy twin (constant_scalar.cu) sets the mask one
// bit wider than the bins.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

#ifndef MASK
#define MASK 15
#endif
__constant__ int mask = MASK;
static int N = 4096;
namespace {
int threads = 256;
}

__global__ void histo(const int *v, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[v[i] & mask], 1);
}

int main() {
  int *v, *bins;
  cudaMalloc(&v, N * sizeof(int));
  cudaMalloc(&bins, 16 * sizeof(int));
  cudaMemset(bins, 0, 16 * sizeof(int));
  int *per_thread;
  cudaMalloc(&per_thread, 256 * sizeof(int));
  cudaMemset(per_thread, 0, threads * sizeof(int));
  int *h = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N; i++) h[i] = rand();
  cudaMemcpy(v, h, N * sizeof(int), cudaMemcpyHostToDevice);
  histo<<<(N + threads - 1) / threads, threads>>>(v, bins, N);
  cudaMemcpy(h, bins, 16 * sizeof(int), cudaMemcpyDeviceToHost);
  free(h);
  cudaFree(v);
  cudaFree(bins);
  cudaFree(per_thread);
  return 0;
}
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in
