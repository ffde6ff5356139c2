// 2D convolution with the filter in __constant__ memory (runtime radius), input tile
// plus halo staged in shared memory, clamped borders; separable row pass too.
#include <cuda_runtime.h>

#define MAX_R 7
#define TW 16
#define TH 16

__constant__ float c_filter[(2 * MAX_R + 1) * (2 * MAX_R + 1)];
__constant__ float c_row_filter[2 * MAX_R + 1];

__global__ void conv2d_const(const float* __restrict__ img, float* __restrict__ out,
                             int width, int height, int radius)
{
    __shared__ float tile[TH + 2 * MAX_R][TW + 2 * MAX_R];
    int ox = blockIdx.x * TW, oy = blockIdx.y * TH;
    int span_x = TW + 2 * radius, span_y = TH + 2 * radius;

    for (int ly = threadIdx.y; ly < span_y; ly += TH)
        for (int lx = threadIdx.x; lx < span_x; lx += TW) {
            int gx = min(max(ox + lx - radius, 0), width - 1);
            int gy = min(max(oy + ly - radius, 0), height - 1);
            tile[ly][lx] = img[(size_t)gy * width + gx];
        }
    __syncthreads();

    int x = ox + threadIdx.x, y = oy + threadIdx.y;
    if (x >= width || y >= height) return;
    int fw = 2 * radius + 1;
    float acc = 0.0f;
    for (int fy = 0; fy < fw; ++fy)
        for (int fx = 0; fx < fw; ++fx)
            acc += c_filter[fy * fw + fx] * tile[threadIdx.y + fy][threadIdx.x + fx];
    out[(size_t)y * width + x] = acc;
}

__global__ void conv_rows_const(const float* __restrict__ in, float* __restrict__ out,
                                int width, int height, int radius)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x >= width || y >= height) return;
    float acc = 0.0f;
    for (int k = -radius; k <= radius; ++k) {
        int xx = min(max(x + k, 0), width - 1);
        acc += c_row_filter[k + radius] * in[(size_t)y * width + xx];
    }
    out[(size_t)y * width + x] = acc;
}
