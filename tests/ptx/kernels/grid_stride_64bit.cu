// 64-bit indexing: size_t grid-stride loops over >2^31 element buffers, 64-bit
// pointer arithmetic, unsigned long long counters and 2D pitched addressing.
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void fill_iota64(unsigned long long* __restrict__ out, size_t n, unsigned long long start)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = start + i;
}

__global__ void saxpy_big(size_t n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

__global__ void count_nonzero_big(const int8_t* __restrict__ data, size_t n,
                                  unsigned long long* __restrict__ count)
{
    unsigned long long local = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        local += (data[i] != 0);
    atomicAdd(count, local);
}

// Pitched 2D image where the byte offset exceeds 32 bits.
__global__ void scale_pitched(char* base, size_t pitch_bytes, int width, long long height, float s)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    for (long long y = blockIdx.y; y < height; y += gridDim.y) {
        float* row = reinterpret_cast<float*>(base + (size_t)y * pitch_bytes);
        if (x < width)
            row[x] *= s;
    }
}

__global__ void gather64(const double* __restrict__ src, const long long* __restrict__ idx,
                         double* __restrict__ dst, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[idx[i]];
}
