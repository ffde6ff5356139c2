// Idiom: a page-locked host buffer from cudaHostAlloc(&p, bytes, cudaHostAllocDefault) whose
// halves are uploaded to two devices' buffers (cuda-samples' simpleMultiGPU style). The
// upper half is taken as n / 2 + 1 elements, one too many when n is even.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 2 || n > (1 << 24)) return 1;
  int lo = n / 2, hi = n / 2 + 1;
  float *h, *d_lo, *d_hi;
  cudaHostAlloc((void **)&h, n * sizeof(float), cudaHostAllocDefault);
  cudaMalloc((void **)&d_lo, lo * sizeof(float));
  cudaMalloc((void **)&d_hi, hi * sizeof(float));
  cudaMemcpy(d_lo, h, lo * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: host_alloc.cu:[[@LINE+1]]:20: warning: out-of-bounds copy from 'h + lo' by cudaMemcpy [gsan-scan-oob]
  cudaMemcpy(d_hi, h + lo, hi * sizeof(float), cudaMemcpyHostToDevice);
  // n = 6: lo = 3, hi = 4; floats 3..6 are bytes 12..27 of the 24 of h
  // CHECK: note: witness: n=6: bytes 12..27 outside size 24
  cudaFree(d_lo);
  cudaFree(d_hi);
  cudaFreeHost(h);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 4 accesses
