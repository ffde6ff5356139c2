// Row-wise numerically stable softmax: one block per row, block-wide max and sum
// reductions via warp shuffles + shared memory, templated on block size.
#include <cuda_runtime.h>
#include <cfloat>

template <int BLOCK>
__device__ float block_reduce(float v, bool is_max, float* shm)
{
    for (int off = 16; off > 0; off >>= 1) {
        float o = __shfl_xor_sync(0xffffffffu, v, off);
        v = is_max ? fmaxf(v, o) : v + o;
    }
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    if (lane == 0) shm[wid] = v;
    __syncthreads();
    v = (threadIdx.x < BLOCK / 32) ? shm[threadIdx.x] : (is_max ? -FLT_MAX : 0.0f);
    if (wid == 0)
        for (int off = 16; off > 0; off >>= 1) {
            float o = __shfl_xor_sync(0xffffffffu, v, off);
            v = is_max ? fmaxf(v, o) : v + o;
        }
    if (threadIdx.x == 0) shm[32] = v;
    __syncthreads();
    float r = shm[32];
    __syncthreads();
    return r;
}

template <int BLOCK>
__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, int cols)
{
    __shared__ float shm[33];
    const float* row = x + (size_t)blockIdx.x * cols;
    float* out = y + (size_t)blockIdx.x * cols;

    float m = -FLT_MAX;
    for (int j = threadIdx.x; j < cols; j += BLOCK) m = fmaxf(m, row[j]);
    m = block_reduce<BLOCK>(m, true, shm);

    float s = 0.0f;
    for (int j = threadIdx.x; j < cols; j += BLOCK) {
        float e = __expf(row[j] - m);
        out[j] = e;
        s += e;
    }
    s = block_reduce<BLOCK>(s, false, shm);
    float inv = 1.0f / s;
    for (int j = threadIdx.x; j < cols; j += BLOCK) out[j] *= inv;
}

// Small-row variant: one warp per row, row cached in registers (cols <= 128).
__global__ void softmax_warp_rows(const float* __restrict__ x, float* __restrict__ y, int rows, int cols)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    float v[4];
    float m = -FLT_MAX;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        int j = lane + 32 * k;
        v[k] = (j < cols) ? x[(size_t)row * cols + j] : -FLT_MAX;
        m = fmaxf(m, v[k]);
    }
    for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 4; ++k) { v[k] = (lane + 32 * k < cols) ? __expf(v[k] - m) : 0.0f; s += v[k]; }
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
#pragma unroll
    for (int k = 0; k < 4; ++k)
        if (lane + 32 * k < cols) y[(size_t)row * cols + lane + 32 * k] = v[k] / s;
}

template __global__ void softmax_rows<128>(const float*, float*, int);
template __global__ void softmax_rows<256>(const float*, float*, int);
