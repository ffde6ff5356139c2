// A pitched 2D allocation: rows are pitch bytes apart (the runtime picks the
// pitch, at least the row's width). The kernel walks rows by the pitch but lets
// y reach height, one row past the end (width 3, pitch 16, height 2: the
// allocation is 32 bytes, row 2 starts at byte 32).
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void clear(float *img, size_t pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y <= height) {
    float *row = (float *)((char *)img + y * pitch);
    // CHECK: pitched.cu:[[@LINE+1]]:5: warning: out-of-bounds write to 'row' [gsan-scan-oob]
    row[x] = 0.0f;
  }
  // CHECK: note: 'img' allocated here with size height * pitch bytes
  // CHECK: note: witness: width=3, height=2, pitch=16, gridDim.x=1, gridDim.y=1, blockDim.x=32, blockDim.y=8, blockIdx.x=0, blockIdx.y=0, threadIdx.x=0, threadIdx.y=2: index 8 of 'img' >= size 8
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
// CHECK: gsan scan: 1 finding, 0 unknown in 1 access
