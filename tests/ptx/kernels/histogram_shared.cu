// 256-bin byte histogram: per-block privatized histogram in shared memory updated
// with shared atomics, then merged into global memory with global atomics.
#include <cuda_runtime.h>

#define NBINS 256

__global__ void histogram256(const unsigned char* __restrict__ data, size_t n,
                             unsigned int* __restrict__ hist)
{
    __shared__ unsigned int s_hist[NBINS];
    for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
        s_hist[b] = 0;
    __syncthreads();

    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&s_hist[data[i]], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < NBINS; b += blockDim.x) {
        unsigned int c = s_hist[b];
        if (c) atomicAdd(&hist[b], c);
    }
}

// Float-valued histogram with a runtime number of bins (dynamic shared memory).
__global__ void histogram_float(const float* __restrict__ x, int n, float lo, float hi,
                                int nbins, int* __restrict__ hist)
{
    extern __shared__ int sh[];
    for (int b = threadIdx.x; b < nbins; b += blockDim.x) sh[b] = 0;
    __syncthreads();

    float scale = nbins / (hi - lo);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = x[i];
        if (v >= lo && v < hi) {
            int b = min((int)((v - lo) * scale), nbins - 1);
            atomicAdd(&sh[b], 1);
        }
    }
    __syncthreads();
    for (int b = threadIdx.x; b < nbins; b += blockDim.x)
        atomicAdd(&hist[b], sh[b]);
}
