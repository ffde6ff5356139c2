// The guarded twin of overflow32.cu: the index is computed in size_t.
// RUN: %gsan-scan %s | %FileCheck %s
// CHECK-NOT: warning
// CHECK: gsan scan: 0 findings, 0 unknown in 2 accesses
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void copy2d(const float *in, float *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) out[(size_t)y * width + x] = in[(size_t)y * width + x];
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
