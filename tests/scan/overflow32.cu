// A 2D copy whose index is computed in 32-bit int. The guard is right, the
// allocation is right (computed in size_t), but y * width + x wraps past
// INT_MAX for images of more than 2^31 pixels and becomes negative. Checked by
// hand: y = 2648 * 16 + 8 = 42376, x = 2627 * 16 + 8 = 42040, and
// 42376 * 53251 + 42040 = 2256606416, which as a 32-bit int is -2038360880.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void copy2d(const float *in, float *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    // CHECK: overflow32.cu:[[@LINE+1]]:5: warning: out-of-bounds write to 'out' [gsan-scan-oob]
    out[y * width + x] = in[y * width + x];
  // CHECK: note: witness: width=53251, height=43520, gridDim.x=3329, gridDim.y=2720, blockDim.x=16, blockDim.y=16, blockIdx.x=2627, blockIdx.y=2648, threadIdx.x=8, threadIdx.y=8: index -2038360880 < 0
  // CHECK: overflow32.cu:[[@LINE-2]]:26: warning: out-of-bounds read of 'in' [gsan-scan-oob]
  // CHECK: note: witness: width=53251, height=43520, gridDim.x=3329, gridDim.y=2720, blockDim.x=16, blockDim.y=16, blockIdx.x=2627, blockIdx.y=2648, threadIdx.x=8, threadIdx.y=8: index -2038360880 < 0
}

int main(int argc, char **argv) {
  int width = atoi(argv[1]), height = atoi(argv[2]);
  if (width < 1 || height < 1 || width > 65536 || height > 65536) return 1;
  size_t bytes = (size_t)width * height * sizeof(float);
  float *in, *out;
  cudaMalloc(&in, bytes);
  cudaMalloc(&out, bytes);
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  copy2d<<<grid, block>>>(in, out, width, height);
  return 0;
}
// CHECK: gsan scan: 2 findings, 0 unknown in 2 accesses
