// Idiom: #define CHECK(x) (x) and a cudaGetLastError() launch check; the guarded twin of
// errcheck_last_error.cu: y stays below height.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 1 access
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x) (x)
#define CHECK_LAUNCH()                                                     \
  do {                                                                     \
    cudaError_t err = cudaGetLastError();                                  \
    if (err != cudaSuccess) {                                              \
      fprintf(stderr, "launch failed: %s\n", cudaGetErrorString(err));     \
      exit(EXIT_FAILURE);                                                  \
    }                                                                      \
  } while (0)

__global__ void fill(int *img, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) img[y * width + x] = x + y;
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int width = atoi(argv[1]), height = atoi(argv[2]);
  if (width < 1 || height < 1 || width > 4096 || height > 4096) return 1;
  int *d;
  CHECK(cudaMalloc(&d, width * height * sizeof(int)));
  dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
  fill<<<grid, block>>>(d, width, height);
  CHECK_LAUNCH();
  CHECK(cudaFree(d));
  return 0;
}
