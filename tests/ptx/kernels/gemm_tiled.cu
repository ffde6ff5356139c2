// Shared-memory tiled SGEMM with 16x16 tiles: C = alpha*A*B + beta*C, row-major,
// arbitrary M/N/K with zero-padded edge tiles and __syncthreads between phases.
#include <cuda_runtime.h>

#define TILE 16

__global__ void sgemm_tiled16(int M, int N, int K, float alpha,
                              const float* __restrict__ A, const float* __restrict__ B,
                              float beta, float* __restrict__ C)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;

    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ak = t * TILE + threadIdx.x;
        int bk = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[(size_t)row * K + ak] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[(size_t)bk * N + col] : 0.0f;
        __syncthreads();

#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }

    if (row < M && col < N) {
        size_t c = (size_t)row * N + col;
        C[c] = alpha * acc + beta * C[c];
    }
}

// Double-precision variant computing C = A*B with the same tiling.
__global__ void dgemm_tiled16(int n, const double* A, const double* B, double* C)
{
    __shared__ double As[TILE][TILE + 1];
    __shared__ double Bs[TILE][TILE + 1];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    double acc = 0.0;
    for (int t = 0; t < n; t += TILE) {
        As[ty][tx] = (row < n && t + tx < n) ? A[row * n + t + tx] : 0.0;
        Bs[ty][tx] = (t + ty < n && col < n) ? B[(t + ty) * n + col] : 0.0;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc = fma(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}
