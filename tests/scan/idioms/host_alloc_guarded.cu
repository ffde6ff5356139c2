// Idiom: a page-locked host buffer from cudaHostAlloc whose halves are uploaded to two
// buffers; the guarded twin of host_alloc.cu: the upper half is n - n / 2 elements.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 4 accesses
#include <cstdlib>
#include <cuda_runtime.h>

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 2 || n > (1 << 24)) return 1;
  int lo = n / 2, hi = n - n / 2;
  float *h, *d_lo, *d_hi;
  cudaHostAlloc((void **)&h, n * sizeof(float), cudaHostAllocDefault);
  cudaMalloc((void **)&d_lo, lo * sizeof(float));
  cudaMalloc((void **)&d_hi, hi * sizeof(float));
  cudaMemcpy(d_lo, h, lo * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_hi, h + lo, hi * sizeof(float), cudaMemcpyHostToDevice);
  cudaFree(d_lo);
  cudaFree(d_hi);
  cudaFreeHost(h);
  return 0;
}
