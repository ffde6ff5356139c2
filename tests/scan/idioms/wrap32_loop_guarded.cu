// Idiom: a column-per-thread loop over the rows; the guarded twin of wrap32_loop.cu: the
// offset is computed in size_t.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 2 accesses
#include <cstdio>
#include <cuda_runtime.h>

__global__ void colsum(const float *m, float *sums, int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= width) return;
  float s = 0.0f;
  for (int r = 0; r < height; r++)
    s += m[(size_t)r * width + col];
  sums[col] = s;
}

int main(int argc, char **argv) {
  int width, height;
  FILE *f = fopen(argv[1], "rb");
  if (!f || fscanf(f, "%d %d", &width, &height) != 2) return 1;
  if (width < 1 || height < 1 || width > 65536 || height > 65536) return 1;
  float *m, *sums;
  cudaMalloc(&m, (size_t)width * height * sizeof(float));
  cudaMalloc(&sums, width * sizeof(float));
  colsum<<<(width + 255) / 256, 256>>>(m, sums, width, height);
  cudaFree(m);
  cudaFree(sums);
  return 0;
}
