// Array parameters as real code declares them: a three-dimensional grid
// passed as double phi[][Y][Z] and indexed phi[x][y][z], and a small local
// array passed as const double v[8]. The central difference reads phi[x + 1]
// for x up to n - 1: one row past the n rows allocated (n = 15, x = 14: phi[15][1][1] is element 15 * 64 + 8 + 1 = 969 of 960).
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>
#define Y 8
#define Z 8

__device__ double grad(double phi[][Y][Z], int x, int y, int z) {
  // CHECK: array_params.cu:[[@LINE+1]]:10: warning: out-of-bounds read of 'phi[x + 1][y]' [gsan-scan-oob]
  return phi[x + 1][y][z] - phi[x][y][z];
  // CHECK: note: witness: n=15, gridDim.x=1, blockDim.x=64, blockIdx.x=0, threadIdx.x=14: index 969 of 'phi' >= size 960 (8-byte elements: byte 7752, size 7680 bytes)
}

__device__ double ends(const double v[8]) { return v[0] + v[7]; }

__global__ void step(double (*phi)[Y][Z], double *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  double loc[8];
  for (int i = 0; i < 8; i++) loc[i] = i;
  if (x < n) out[x] = grad(phi, x, 1, 1) + ends(loc);
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > 4096) return 1;
  double (*phi)[Y][Z], *out;
  cudaMalloc(&phi, n * sizeof(*phi));
  cudaMalloc(&out, n * sizeof(double));
  step<<<(n + 63) / 64, 64>>>(phi, out, n);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 6 accesses
