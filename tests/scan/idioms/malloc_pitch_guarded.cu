// Idiom: cudaMallocPitch and a flat float index; the guarded twin of malloc_pitch.cu: the
// pitch is converted to floats (pitch / sizeof(float)) before it scales the row.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 3 accesses
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void invert(float *img, size_t pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  size_t ld = pitch / sizeof(float);
  if (x < width && y < height) img[y * ld + x] = 1.0f - img[y * ld + x];
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
