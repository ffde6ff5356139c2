// Idiom: cudaError_t alloc_buf(int **out, int n) filling an out-parameter; the guarded twin
// of alloc_outparam.cu: the bin is i % bins.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 3 accesses
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static cudaError_t alloc_buf(int **out, int n) {
  return cudaMalloc((void **)out, n * sizeof(int));
}

__global__ void histo(const int *vals, int *hist, int n, int bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int b = i % bins;
  atomicAdd(&hist[b], vals[i]);
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int n = atoi(argv[1]), bins = atoi(argv[2]);
  if (n < 1 || n > (1 << 24) || bins < 1 || bins > 1024) return 1;
  int *d_vals, *d_hist;
  if (alloc_buf(&d_vals, n) != cudaSuccess) return 1;
  if (alloc_buf(&d_hist, bins) != cudaSuccess) return 1;
  cudaMemset(d_hist, 0, bins * sizeof(int));
  histo<<<(n + 255) / 256, 256>>>(d_vals, d_hist, n, bins);
  cudaFree(d_vals);
  cudaFree(d_hist);
  return 0;
}
