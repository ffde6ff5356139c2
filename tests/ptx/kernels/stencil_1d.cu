// 1D 3-point stencil: shared-memory tile with halo cells, grid-stride over tiles,
// __restrict__ pointers and boundary-predicated loads/stores.
#include <cuda_runtime.h>

#define BLOCK 256
#define RADIUS 1

__global__ void stencil1d_shared(const float* __restrict__ in, float* __restrict__ out,
                                 int n, float w0, float w1)
{
    __shared__ float tile[BLOCK + 2 * RADIUS];

    for (int base = blockIdx.x * BLOCK; base < n; base += gridDim.x * BLOCK) {
        int gi = base + threadIdx.x;
        int li = threadIdx.x + RADIUS;

        tile[li] = (gi < n) ? in[gi] : 0.0f;
        if (threadIdx.x < RADIUS) {
            int left = gi - RADIUS;
            int right = gi + BLOCK;
            tile[li - RADIUS] = (left >= 0) ? in[left] : 0.0f;
            tile[li + BLOCK] = (right < n) ? in[right] : 0.0f;
        }
        __syncthreads();

        if (gi < n) {
            float v = w0 * tile[li] + w1 * (tile[li - 1] + tile[li + 1]);
            out[gi] = v;
        }
        __syncthreads();
    }
}

// Naive version reading straight from global memory, with clamped boundaries.
__global__ void stencil1d_global(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float l = in[max(i - 1, 0)];
    float c = in[i];
    float r = in[min(i + 1, n - 1)];
    out[i] = 0.25f * l + 0.5f * c + 0.25f * r;
}
