// The guarded twin of pitched.cu: y stays below height.
// RUN: %gsan-scan %s | %FileCheck %s
// CHECK-NOT: warning
// CHECK: gsan scan: 0 findings, 0 unknown in 1 access
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void clear(float *img, size_t pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    float *row = (float *)((char *)img + y * pitch);
    row[x] = 0.0f;
  }
}

int main(int argc, char **argv) {
  int width = atoi(argv[1]), height = atoi(argv[2]);
  if (width < 1 || height < 1 || width > 8192 || height > 8192) return 1;
  float *img;
  size_t pitch;
  cudaMallocPitch(&img, &pitch, width * sizeof(float), height);
  dim3 block(32, 8), grid((width + 31) / 32, (height + 7) / 8);
  clear<<<grid, block>>>(img, pitch, width, height);
  return 0;
}
