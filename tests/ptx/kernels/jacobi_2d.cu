// 2D 5-point Jacobi relaxation: templated on precision (float/double explicit
// instantiations), shared tile with halo, residual reduced via atomicAdd.
#include <cuda_runtime.h>

#define TX 32
#define TY 8

template <typename T>
__global__ void jacobi2d(const T* __restrict__ u, const T* __restrict__ f,
                         T* __restrict__ unew, T* residual, int nx, int ny, T h2)
{
    __shared__ T s[TY + 2][TX + 2];

    int x = blockIdx.x * TX + threadIdx.x;
    int y = blockIdx.y * TY + threadIdx.y;
    int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
    bool inside = (x < nx && y < ny);

    s[ly][lx] = inside ? u[(size_t)y * nx + x] : T(0);
    if (threadIdx.x == 0)      s[ly][0]      = (x > 0 && y < ny) ? u[(size_t)y * nx + x - 1] : T(0);
    if (threadIdx.x == TX - 1) s[ly][TX + 1] = (x + 1 < nx && y < ny) ? u[(size_t)y * nx + x + 1] : T(0);
    if (threadIdx.y == 0)      s[0][lx]      = (y > 0 && x < nx) ? u[(size_t)(y - 1) * nx + x] : T(0);
    if (threadIdx.y == TY - 1) s[TY + 1][lx] = (y + 1 < ny && x < nx) ? u[(size_t)(y + 1) * nx + x] : T(0);
    __syncthreads();

    T diff = T(0);
    if (inside && x > 0 && y > 0 && x < nx - 1 && y < ny - 1) {
        size_t idx = (size_t)y * nx + x;
        T v = T(0.25) * (s[ly][lx - 1] + s[ly][lx + 1] + s[ly - 1][lx] + s[ly + 1][lx] - h2 * f[idx]);
        unew[idx] = v;
        diff = (v - s[ly][lx]) * (v - s[ly][lx]);
    }

    // Warp reduction of the squared update then one atomic per warp.
    for (int off = 16; off > 0; off >>= 1)
        diff += __shfl_down_sync(0xffffffffu, diff, off);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(residual, diff);
}

template __global__ void jacobi2d<float>(const float*, const float*, float*, float*, int, int, float);
template __global__ void jacobi2d<double>(const double*, const double*, double*, double*, int, int, double);
