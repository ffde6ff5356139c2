// Idiom: a check macro that only evaluates its argument, #define CHECK(x) (x), and a
// launch check that reads cudaGetLastError() after the launch (cuda-samples'
// getLastCudaError style). The 2D kernel guards x against the width but lets y reach
// height: one row past the end.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
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
  // CHECK: errcheck_last_error.cu:[[@LINE+1]]:33: warning: out-of-bounds write to 'img' [gsan-scan-oob]
  if (x < width && y <= height) img[y * width + x] = x + y;
  // width = 9, height = 15: thread (8, 15) passes y <= height and writes 15 * 9 + 8 = 143 >= 135
  // CHECK: note: witness: width=9, height=15, gridDim.x=1, gridDim.y=1, blockDim.x=16, blockDim.y=16, blockIdx.x=0, blockIdx.y=0, threadIdx.x=8, threadIdx.y=15: index 143 of 'd' >= size 135
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
// CHECK: gsan scan: 1 finding, 0 unknown in 1 access
