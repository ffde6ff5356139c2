// Idiom: a 2D index row * width + col; the guarded twin of wrap32.cu: the index is computed
// in size_t, so it does not wrap.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 2 accesses
#include <cstdio>
#include <cuda_runtime.h>

__global__ void gain(unsigned char *img, int width, int height, float g) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < height && col < width) {
    size_t idx = (size_t)row * width + col;
    img[idx] = (unsigned char)fminf(img[idx] * g, 255.0f);
  }
}

int main(int argc, char **argv) {
  int width, height;
  FILE *f = fopen(argv[1], "rb");
  if (!f || fscanf(f, "%d %d", &width, &height) != 2) return 1;
  if (width < 1 || height < 1 || width > 65536 || height > 65536) return 1;
  unsigned char *d;
  cudaMalloc(&d, (size_t)width * height);
  dim3 block(32, 8), grid((width + 31) / 32, (height + 7) / 8);
  gain<<<grid, block>>>(d, width, height, 1.5f);
  cudaFree(d);
  return 0;
}
