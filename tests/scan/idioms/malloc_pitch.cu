// Idiom: cudaMallocPitch and a kernel that indexes the pitched image as a flat float array
// (cuda-samples and HeCBench image codes). The pitch is in bytes but is used as a count of
// floats: row y starts y * pitch floats in, four times too far, past the end for any
// image of more than one row.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void invert(float *img, size_t pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  // width = 3, height = 7, pitch = 16 bytes: 7 * 16 = 112 bytes, 28 floats; row 2 starts
  // at float 2 * 16 = 32 instead of byte 32
  // CHECK: malloc_pitch.cu:[[@LINE+1]]:32: warning: out-of-bounds write to 'img' [gsan-scan-oob]
  if (x < width && y < height) img[y * pitch + x] = 1.0f - img[y * pitch + x];
  // CHECK: note: witness: width=3, height=7, pitch=16, gridDim.x=1, gridDim.y=1, blockDim.x=32, blockDim.y=8, blockIdx.x=0, blockIdx.y=0, threadIdx.x=0, threadIdx.y=2: index 32 >= size 28
  // CHECK: malloc_pitch.cu:[[@LINE-2]]:60: warning: out-of-bounds read of 'img' [gsan-scan-oob]
  // CHECK: note: witness: width=3, height=7, pitch=16, gridDim.x=1, gridDim.y=1, blockDim.x=32, blockDim.y=8, blockIdx.x=0, blockIdx.y=0, threadIdx.x=0, threadIdx.y=2: index 32 >= size 28
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int width = atoi(argv[1]), height = atoi(argv[2]);
  if (width < 1 || height < 1 || width > 8192 || height > 8192) return 1;
  float *img;
  size_t pitch;
  cudaMallocPitch((void **)&img, &pitch, width * sizeof(float), height);
  cudaMemset2D(img, pitch, 0, width * sizeof(float), height);
  dim3 block(32, 8), grid((width + 31) / 32, (height + 7) / 8);
  invert<<<grid, block>>>(img, pitch, width, height);
  cudaFree(img);
  return 0;
}
// CHECK: gsan scan: 2 findings, 0 unknown in 3 accesses
