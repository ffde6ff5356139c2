// Needleman-Wunsch style wavefront: blocks on one anti-diagonal of 16x16 tiles, each
// tile filled diagonal-by-diagonal in shared memory with __syncthreads (Rodinia nw).
#include <cuda_runtime.h>

#define BS 16

__device__ __forceinline__ int max3(int a, int b, int c) { return max(a, max(b, c)); }

// score: (n+1)x(n+1) row-major, row 0 / col 0 pre-initialised. ref: n x n similarity.
// Launch with BS threads per block, one block per tile on block-diagonal `diag`.
__global__ void nw_tile_diagonal(int* __restrict__ score, const int* __restrict__ ref,
                                 int n, int diag, int ntiles, int penalty)
{
    __shared__ int s[BS + 1][BS + 1];
    __shared__ int r[BS][BS];
    int t = threadIdx.x;
    int bx = blockIdx.x + max(0, diag - ntiles + 1);   // tile column
    int by = diag - bx;                                // tile row
    if (bx >= ntiles || by < 0) return;

    int w = n + 1;
    int row0 = by * BS, col0 = bx * BS;                 // top-left in score (halo cell)
    s[0][t + 1] = score[(size_t)row0 * w + col0 + t + 1];
    s[t + 1][0] = score[(size_t)(row0 + t + 1) * w + col0];
    if (t == 0) s[0][0] = score[(size_t)row0 * w + col0];
    for (int i = 0; i < BS; ++i)
        r[i][t] = ref[(size_t)(row0 + i) * n + col0 + t];
    __syncthreads();

    for (int d = 0; d < 2 * BS - 1; ++d) {              // anti-diagonals inside the tile
        int i = t, j = d - t;
        if (j >= 0 && j < BS)
            s[i + 1][j + 1] = max3(s[i][j] + r[i][j], s[i][j + 1] - penalty, s[i + 1][j] - penalty);
        __syncthreads();
    }
    for (int i = 0; i < BS; ++i)
        score[(size_t)(row0 + i + 1) * w + col0 + t + 1] = s[i + 1][t + 1];
}

// Cell-level variant: one launch per anti-diagonal of the full matrix.
__global__ void nw_cell_diagonal(int* score, const int* ref, int n, int d, int penalty)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + max(0, d - n + 1);
    int j = d - i;
    if (i >= n || j < 0 || j >= n) return;
    int w = n + 1;
    int diagv = score[(size_t)i * w + j] + ref[(size_t)i * n + j];
    int up = score[(size_t)i * w + j + 1] - penalty;
    int left = score[(size_t)(i + 1) * w + j] - penalty;
    score[(size_t)(i + 1) * w + j + 1] = max3(diagv, up, left);
}
