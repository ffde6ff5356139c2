// Vector types: float4 / int2 / double2 / uchar4 loads and stores, __ldg read-only
// loads of vectors and scalars, and a vectorised copy with scalar tail.
#include <cuda_runtime.h>

__global__ void saxpy_float4(const float4* __restrict__ x, float4* __restrict__ y,
                             const float* __restrict__ xs, float* __restrict__ ys,
                             float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n4 = n / 4;
    if (i < n4) {
        float4 xv = __ldg(&x[i]);
        float4 yv = y[i];
        yv.x += a * xv.x; yv.y += a * xv.y; yv.z += a * xv.z; yv.w += a * xv.w;
        y[i] = yv;
    }
    int tail = n4 * 4 + i;                   // scalar remainder
    if (i < 4 && tail < n)
        ys[tail] += a * __ldg(&xs[tail]);
}

__global__ void int2_pairs(const int2* __restrict__ pairs, int2* __restrict__ swapped,
                           long long* __restrict__ products, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int2 p = __ldg(&pairs[i]);
    swapped[i] = make_int2(p.y, p.x);
    products[i] = (long long)p.x * p.y;
}

__global__ void rgba_to_gray(const uchar4* __restrict__ rgba, unsigned char* __restrict__ gray,
                             float2* __restrict__ stats, int npix)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= npix) return;
    uchar4 c = rgba[i];
    float g = 0.299f * c.x + 0.587f * c.y + 0.114f * c.z;
    gray[i] = (unsigned char)min(255.0f, g);
    stats[i] = make_float2(g, c.w / 255.0f);
}

__global__ void complex_scale(double2* z, const double2* __restrict__ w, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        double2 a = z[i], b = __ldg(&w[i]);
        z[i] = make_double2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
    }
}
