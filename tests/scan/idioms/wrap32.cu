// Idiom: a 2D index computed in 32-bit int, int idx = row * width + col, before it is used
// as an offset (image kernels everywhere; HeCBench's many 2D kernels). The allocation is
// computed in size_t and the guard is right, but for images of more than 2^31 pixels the
// product wraps and idx is negative. Checked by hand: row = 5633 * 8 + 6 = 45070,
// col = 248 * 32 + 3 = 7939, 45070 * 56959 + 7939 = 2567150069, which as a 32-bit int is
// 2567150069 - 2^32 = -1727817227.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdio>
#include <cuda_runtime.h>

__global__ void gain(unsigned char *img, int width, int height, float g) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < height && col < width) {
    int idx = row * width + col;
    // CHECK: wrap32.cu:[[@LINE+1]]:5: warning: out-of-bounds write to 'img' [gsan-scan-oob]
    img[idx] = (unsigned char)fminf(img[idx] * g, 255.0f);
    // CHECK: note: witness: width=56959, height=51208, gridDim.x=1780, gridDim.y=6401, blockDim.x=32, blockDim.y=8, blockIdx.x=248, blockIdx.y=5633, threadIdx.x=3, threadIdx.y=6: index -1727817227 of 'd' < 0
    // CHECK: wrap32.cu:[[@LINE-2]]:37: warning: out-of-bounds read of 'img' [gsan-scan-oob]
    // CHECK: note: witness: width=56959, height=51208, gridDim.x=1780, gridDim.y=6401, blockDim.x=32, blockDim.y=8, blockIdx.x=248, blockIdx.y=5633, threadIdx.x=3, threadIdx.y=6: index -1727817227 of 'd' < 0
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
// CHECK: gsan scan: 2 findings, 0 unknown in 2 accesses
