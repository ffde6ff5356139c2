// The guarded twin of tile_remainder.cu: loads outside the matrix read zero,
// the store is guarded; with N <= 4096 no index wraps. Proving it takes the
// relaxation (row < N and col < N imply row * N + col < N * N).
// RUN: %gsan-scan %s | %FileCheck %s
// CHECK-NOT: warning
// CHECK-NOT: remark
// CHECK: gsan scan: 0 findings, 0 unknown in 7 accesses
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
    int ac = t * TILE + tx, br = t * TILE + ty;
    As[ty][tx] = (row < N && ac < N) ? A[row * N + ac] : 0.0f;
    Bs[ty][tx] = (br < N && col < N) ? B[br * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; k++) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < N && col < N) C[row * N + col] = sum;
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
