// Block reductions using warp shuffles (__shfl_down_sync / __shfl_xor_sync), a
// per-block shared array of warp partials, grid-stride accumulation and atomics.
#include <cuda_runtime.h>

__inline__ __device__ float warp_reduce_sum(float v)
{
    for (int off = warpSize / 2; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__inline__ __device__ int warp_reduce_max(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v = max(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}

__global__ void reduce_sum(const float* __restrict__ in, float* __restrict__ block_out,
                           float* total, size_t n)
{
    __shared__ float warp_sums[32];
    float sum = 0.0f;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        sum += in[i];

    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    sum = warp_reduce_sum(sum);
    if (lane == 0) warp_sums[wid] = sum;
    __syncthreads();

    if (wid == 0) {
        int nwarps = (blockDim.x + 31) >> 5;
        sum = (lane < nwarps) ? warp_sums[lane] : 0.0f;
        sum = warp_reduce_sum(sum);
        if (lane == 0) {
            block_out[blockIdx.x] = sum;
            atomicAdd(total, sum);
        }
    }
}

__global__ void reduce_max_int(const int* in, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : INT_MIN;
    v = warp_reduce_max(v);
    if ((threadIdx.x & 31) == 0)
        atomicMax(out, v);
}
