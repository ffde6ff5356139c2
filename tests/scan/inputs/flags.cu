// A kernel whose shared tile has TILE elements (a -D macro) and whose block
// has 256 threads: TILE below 256 overflows. TILE_BYTES comes from tile.h,
// found with -I.
#include <cstdlib>
#include <cuda_runtime.h>
#include "tile.h"

__global__ void k(float *a, int n) {
  __shared__ float tile[TILE_BYTES / 4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? a[i] : 0.0f;
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 20)) return 1;
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  k<<<(n + 255) / 256, 256>>>(a, n);
  return 0;
}
