// cp.async through the <cuda_pipeline.h> primitives (__pipeline_memcpy_async,
// __pipeline_commit, __pipeline_wait_prior): multi-stage tiled 1D convolution.
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

#define TILE 128
#define STAGES 2

__global__ void conv1d_pipelined(const float* __restrict__ in, float* __restrict__ out,
                                 const float* __restrict__ taps, int ntiles, int ntaps)
{
    __shared__ __align__(16) float stage[STAGES][TILE + 32];
    __shared__ float s_taps[32];
    int t = threadIdx.x;                       // blockDim.x == TILE
    size_t base = (size_t)blockIdx.x * ntiles * TILE;

    if (t < ntaps && t < 32)
        __pipeline_memcpy_async(&s_taps[t], &taps[t], sizeof(float));
    __pipeline_memcpy_async(&stage[0][t], &in[base + t], sizeof(float));
    if (t < 32)
        __pipeline_memcpy_async(&stage[0][TILE + t], &in[base + TILE + t], sizeof(float));
    __pipeline_commit();

    for (int k = 0; k < ntiles; ++k) {
        int cur = k % STAGES;
        if (k + 1 < ntiles) {
            size_t nb = base + (size_t)(k + 1) * TILE;
            __pipeline_memcpy_async(&stage[cur ^ 1][t], &in[nb + t], sizeof(float));
            if (t < 32)
                __pipeline_memcpy_async(&stage[cur ^ 1][TILE + t], &in[nb + TILE + t], sizeof(float));
        }
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();

        float acc = 0.0f;
        for (int j = 0; j < ntaps; ++j)
            acc += s_taps[j] * stage[cur][t + j];
        out[base + (size_t)k * TILE + t] = acc;
        __syncthreads();
    }
    __pipeline_wait_prior(0);
}

// 16-byte variant copying float4 rows into shared memory and reducing them.
__global__ void rowsum_async16(const float4* __restrict__ rows, float* __restrict__ sums, int nrows)
{
    __shared__ float4 s[64];
    int r = blockIdx.x * 64 + threadIdx.x;
    if (r < nrows)
        __pipeline_memcpy_async(&s[threadIdx.x], &rows[r], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    if (r < nrows) {
        float4 v = s[threadIdx.x];
        sums[r] = v.x + v.y + v.z + v.w;
    }
}
