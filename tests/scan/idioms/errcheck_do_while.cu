// Idiom: the do { cudaError_t e = (x); if (e != cudaSuccess) { ...; exit(1); } } while (0)
// error macro (CUDA_CHECK / checkCudaErrors style, common in HeCBench and cuda-samples)
// around every runtime call and the launch check. The kernel has no i < n guard while the
// grid is rounded up to whole blocks: when n is not a multiple of 256 the last block's
// threads from n on write past the end.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(x)                                                       \
  do {                                                                      \
    cudaError_t e = (x);                                                    \
    if (e != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                              \
    }                                                                       \
  } while (0)

__global__ void scale(float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: errcheck_do_while.cu:[[@LINE+1]]:3: warning: out-of-bounds write to 'y' [gsan-scan-oob]
  y[i] *= a;
  // n = 15: one block of 256; thread 15 writes y[15], one past the 15 floats
  // CHECK: note: witness: n=15, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=15: index 15 of 'd' >= size 15
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  float *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = (float)i;
  float *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
  scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d));
  free(h);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 5 accesses
