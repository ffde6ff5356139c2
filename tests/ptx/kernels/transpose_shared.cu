// Matrix transpose through a padded shared-memory tile (TILE x TILE+1 to avoid bank
// conflicts), with a templated element type and a naive global-only reference.
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

template <typename T>
__global__ void transpose_padded(T* __restrict__ odata, const T* __restrict__ idata,
                                 int width, int height)
{
    __shared__ T tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = idata[(size_t)(y + j) * width + x];
    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            odata[(size_t)(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_naive(float* odata, const float* idata, int width, int height)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            odata[(size_t)x * height + (y + j)] = idata[(size_t)(y + j) * width + x];
}

template __global__ void transpose_padded<float>(float*, const float*, int, int);
template __global__ void transpose_padded<double>(double*, const double*, int, int);
template __global__ void transpose_padded<short>(short*, const short*, int, int);
