// Templated kernels parameterised by element type, functor and block size, with
// explicit instantiations of several combinations (transform + block reduce).
#include <cuda_runtime.h>

struct Square { template <typename T> __device__ T operator()(T x) const { return x * x; } };
struct AbsVal { template <typename T> __device__ T operator()(T x) const { return x < T(0) ? -x : x; } };
struct Affine {
    float a, b;
    template <typename T> __device__ T operator()(T x) const { return T(a) * x + T(b); }
};

template <typename T, typename Op>
__global__ void transform_kernel(const T* __restrict__ in, T* __restrict__ out, size_t n, Op op)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)blockDim.x * gridDim.x)
        out[i] = op(in[i]);
}

template <typename T, int BLOCK, typename Op>
__global__ void transform_reduce(const T* __restrict__ in, T* __restrict__ out, int n, Op op)
{
    __shared__ T s[BLOCK];
    int t = threadIdx.x;
    T v = T(0);
    for (int i = blockIdx.x * BLOCK + t; i < n; i += gridDim.x * BLOCK)
        v += op(in[i]);
    s[t] = v;
    __syncthreads();
#pragma unroll
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

template <typename T>
__device__ T clamp_val(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }

template <typename T>
__global__ void clamp_kernel(T* data, int n, T lo, T hi)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = clamp_val(data[i], lo, hi);
}

template __global__ void transform_kernel<float, Square>(const float*, float*, size_t, Square);
template __global__ void transform_kernel<double, AbsVal>(const double*, double*, size_t, AbsVal);
template __global__ void transform_kernel<float, Affine>(const float*, float*, size_t, Affine);
template __global__ void transform_kernel<int, AbsVal>(const int*, int*, size_t, AbsVal);
template __global__ void transform_reduce<float, 256, Square>(const float*, float*, int, Square);
template __global__ void transform_reduce<double, 128, AbsVal>(const double*, double*, int, AbsVal);
template __global__ void transform_reduce<long long, 64, Square>(const long long*, long long*, int, Square);
template __global__ void clamp_kernel<float>(float*, int, float, float);
template __global__ void clamp_kernel<unsigned char>(unsigned char*, int, unsigned char, unsigned char);
