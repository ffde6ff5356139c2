// A tiled matrix multiply that assumes N is a multiple of the tile: the loads
// into shared memory are unguarded, so for N = 17 the second tile reads past
// row and matrix ends. Witnesses checked by hand: A[13 * 12 + 0] = A[156] of
// 144; B[15 * 15 + 4] = B[229] of 225; C[14 * 15 + 15] = C[225] of 225.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>
#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int N) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (N + TILE - 1) / TILE; t++) {
    // CHECK: tile_remainder.cu:[[@LINE+1]]:18: warning: out-of-bounds read of 'A' [gsan-scan-oob]
    As[ty][tx] = A[row * N + t * TILE + tx];
    // CHECK: note: witness: N=12, gridDim.y=1, blockDim.x=16, blockDim.y=16, blockIdx.y=0, threadIdx.x=0, threadIdx.y=13, t=0: index 156 >= size 144
    // CHECK: tile_remainder.cu:[[@LINE+1]]:18: warning: out-of-bounds read of 'B' [gsan-scan-oob]
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];
    // CHECK: note: witness: N=15, gridDim.x=1, blockDim.x=16, blockDim.y=16, blockIdx.x=0, threadIdx.x=4, threadIdx.y=15, t=0: index 229 >= size 225
    __syncthreads();
    for (int k = 0; k < TILE; k++) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  // CHECK: tile_remainder.cu:[[@LINE+1]]:3: warning: out-of-bounds write to 'C' [gsan-scan-oob]
  C[row * N + col] = sum;
  // CHECK: note: witness: N=15, gridDim.x=1, gridDim.y=1, blockDim.x=16, blockDim.y=16, blockIdx.x=0, blockIdx.y=0, threadIdx.x=15, threadIdx.y=14: index 225 >= size 225
}

int main(int argc, char **argv) {
  int N = atoi(argv[1]);
  if (N < 1 || N > 4096) return 1;
  size_t bytes = (size_t)N * N * sizeof(float);
  float *A, *B, *C;
  cudaMalloc(&A, bytes);
  cudaMalloc(&B, bytes);
  cudaMalloc(&C, bytes);
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (N + TILE - 1) / TILE);
  matmul<<<grid, block>>>(A, B, C, N);
  return 0;
}
// CHECK: gsan scan: 3 findings, 0 unknown in 7 accesses
