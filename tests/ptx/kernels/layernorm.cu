// LayerNorm forward: one warp per row, Welford-free two-pass mean/variance with
// shuffles, affine gamma/beta, output templated (float and __half) + saved stats.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__device__ __forceinline__ float warp_sum(float v)
{
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return __shfl_sync(0xffffffffu, v, 0);
}

__device__ __forceinline__ void store_out(float* p, float v) { *p = v; }
__device__ __forceinline__ void store_out(__half* p, float v) { *p = __float2half(v); }

template <typename OutT>
__global__ void layernorm_fwd(const float* __restrict__ x, const float* __restrict__ gamma,
                              const float* __restrict__ beta, OutT* __restrict__ y,
                              float* __restrict__ mean_out, float* __restrict__ rstd_out,
                              int rows, int cols, float eps)
{
    int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float* xr = x + (size_t)row * cols;

    float s = 0.0f;
    for (int j = lane; j < cols; j += 32) s += xr[j];
    float mean = warp_sum(s) / cols;

    float v = 0.0f;
    for (int j = lane; j < cols; j += 32) { float d = xr[j] - mean; v += d * d; }
    float rstd = rsqrtf(warp_sum(v) / cols + eps);

    OutT* yr = y + (size_t)row * cols;
    for (int j = lane; j < cols; j += 32)
        store_out(&yr[j], (xr[j] - mean) * rstd * gamma[j] + beta[j]);
    if (lane == 0) {
        mean_out[row] = mean;
        rstd_out[row] = rstd;
    }
}

// Backward pass for gamma/beta gradients: column-parallel accumulation with atomics.
__global__ void layernorm_bwd_gamma_beta(const float* __restrict__ dy, const float* __restrict__ x,
                                         const float* __restrict__ mean, const float* __restrict__ rstd,
                                         float* dgamma, float* dbeta, int rows, int cols)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= cols) return;
    float dg = 0.0f, db = 0.0f;
    for (int r = blockIdx.y; r < rows; r += gridDim.y) {
        float g = dy[(size_t)r * cols + j];
        dg += g * (x[(size_t)r * cols + j] - mean[r]) * rstd[r];
        db += g;
    }
    atomicAdd(&dgamma[j], dg);
    atomicAdd(&dbeta[j], db);
}

template __global__ void layernorm_fwd<float>(const float*, const float*, const float*, float*,
                                              float*, float*, int, int, float);
template __global__ void layernorm_fwd<__half>(const float*, const float*, const float*, __half*,
                                               float*, float*, int, int, float);
