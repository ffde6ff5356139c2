// Idiom: an allocation wrapper that fills a T ** out-parameter and returns the status,
// cudaError_t alloc_buf(int **out, int n) (common in HeCBench helpers). The histogram has
// bins entries, but a value equal to bins is counted in bin 'bins'.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static cudaError_t alloc_buf(int **out, int n) {
  return cudaMalloc((void **)out, n * sizeof(int));
}

__global__ void histo(const int *vals, int *hist, int n, int bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int b = i % (bins + 1);
  // CHECK: alloc_outparam.cu:[[@LINE+1]]:14: warning: out-of-bounds atomic access to 'hist' [gsan-scan-oob]
  atomicAdd(&hist[b], vals[i]);
  // n = 16, bins = 6: thread 13 counts into bin 13 % 7 = 6 of the 6 bins
  // CHECK: note: witness: n=16, bins=6, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=13: index 6 of 'd_hist' >= size 6
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
// CHECK: gsan scan: 1 finding, 0 unknown in 3 accesses
