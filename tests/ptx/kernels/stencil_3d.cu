// 3D 7-point stencil (heat equation step) with 64-bit size_t plane indexing and a
// register-marching z loop; exercises strided global loads and __ldg.
#include <cuda_runtime.h>

__global__ void heat3d_7pt(const float* __restrict__ in, float* __restrict__ out,
                           int nx, int ny, int nz, float alpha)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x <= 0 || y <= 0 || x >= nx - 1 || y >= ny - 1) return;

    size_t plane = (size_t)nx * ny;
    size_t idx = plane + (size_t)y * nx + x;

    float below = __ldg(&in[idx - plane]);
    float center = __ldg(&in[idx]);
    for (int z = 1; z < nz - 1; ++z) {
        float above = __ldg(&in[idx + plane]);
        float lap = in[idx - 1] + in[idx + 1] + in[idx - nx] + in[idx + nx]
                  + below + above - 6.0f * center;
        out[idx] = center + alpha * lap;
        below = center;
        center = above;
        idx += plane;
    }
}

// Straightforward version: one thread per (x,y,z) point, grid-stride in z.
__global__ void stencil3d_simple(const double* in, double* out, int nx, int ny, int nz,
                                 double c0, double c1)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    for (int z = blockIdx.z; z < nz; z += gridDim.z) {
        if (x >= nx || y >= ny) continue;
        size_t i = ((size_t)z * ny + y) * nx + x;
        if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
            out[i] = in[i];
            continue;
        }
        size_t sy = nx, sz = (size_t)nx * ny;
        out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - sy] + in[i + sy]
                                    + in[i - sz] + in[i + sz]);
    }
}
