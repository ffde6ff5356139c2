// The example `make demo` analyses, instruments and runs: saxpy with an off-by-one guard.
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)  // bug: should be i < n
    y[i] = a * x[i] + y[i];
}

// The host side, in everyday CUDA style (gsan scan follows the error-checking
// macro). The kernel stays on the lines above: docs/demo/saxpy.ptx, the
// kernel's PTX for machines without nvcc, and the tests refer to them.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(x)                                                                  \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));     \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  if (n < 1 || n > (1 << 28)) return 1;
  float *x, *y;
  CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&y, n * sizeof(float)));
  CUDA_CHECK(cudaMemset(x, 0, n * sizeof(float)));
  CUDA_CHECK(cudaMemset(y, 0, n * sizeof(float)));
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(x));
  CUDA_CHECK(cudaFree(y));
  printf("saxpy of %d elements done\n", n);
  return 0;
}
