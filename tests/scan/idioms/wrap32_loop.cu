// Idiom: a column-per-thread loop over the rows with the offset computed in 32-bit int,
// out[r * width + col] (column reductions and vertical filters, e.g. in HeCBench). The
// allocation is computed in size_t; for more than 2^31 elements r * width wraps. Checked
// by hand: col = 10 * 256 + 1 = 2561, 64264 * 36015 + 2561 = 2314470521, which as a
// 32-bit int is 2314470521 - 2^32 = -1980496775.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdio>
#include <cuda_runtime.h>

__global__ void colsum(const float *m, float *sums, int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= width) return;
  float s = 0.0f;
  for (int r = 0; r < height; r++)
    // CHECK: wrap32_loop.cu:[[@LINE+1]]:10: warning: out-of-bounds read of 'm' [gsan-scan-oob]
    s += m[r * width + col];
  // CHECK: note: witness: width=36015, height=64512, gridDim.x=141, blockDim.x=256, blockIdx.x=10, threadIdx.x=1, r=64264: index -1980496775 < 0
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
// CHECK: gsan scan: 1 finding, 0 unknown in 2 accesses
