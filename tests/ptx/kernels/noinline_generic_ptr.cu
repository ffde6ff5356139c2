// __noinline__ device functions taking generic pointers that are called with
// global, shared and local addresses, so the callee must use generic ld/st.
#include <cuda_runtime.h>

__device__ __noinline__ float dot_generic(const float* a, const float* b, int n)
{
    float s = 0.0f;
    for (int i = 0; i < n; ++i)
        s += a[i] * b[i];
    return s;
}

__device__ __noinline__ void axpy_generic(float* y, const float* x, float alpha, int n)
{
    for (int i = 0; i < n; ++i)
        y[i] += alpha * x[i];
}

__device__ __noinline__ int count_above(const int* p, int n, int thresh, int* out_first)
{
    int c = 0;
    for (int i = 0; i < n; ++i) {
        if (p[i] > thresh) {
            if (c == 0) *out_first = i;
            ++c;
        }
    }
    return c;
}

__global__ void mixed_space_calls(const float* __restrict__ g, float* __restrict__ out,
                                  const int* __restrict__ gi, int* __restrict__ iout, int n)
{
    __shared__ float sh[128];
    __shared__ int shi[128];
    float loc[16];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;

    sh[t & 127] = (i < n) ? g[i] : 0.0f;
    shi[t & 127] = (i < n) ? gi[i] : 0;
    for (int k = 0; k < 16; ++k)
        loc[k] = (i + k < n) ? g[i + k] : 0.0f;
    __syncthreads();

    float a = dot_generic(g + (blockIdx.x * blockDim.x), sh, min(16, n - (int)(blockIdx.x * blockDim.x)));  // global x shared
    float b = dot_generic(loc, loc, 16);                      // local x local
    axpy_generic(loc, sh + (t & 0x70), 0.5f, 16);             // local += shared
    __syncthreads();
    if (t < 16) axpy_generic(sh + t * 8, loc, 0.25f, 8);      // shared += local
    __syncthreads();

    int first = -1;
    int c1 = count_above(shi, 128, 10, &first);               // shared, local out
    int c2 = count_above(gi, min(n, 64), 10, &iout[n + i]);   // global, global out
    if (i < n) {
        out[i] = a + b + loc[t & 15] + sh[t & 127];
        iout[i] = c1 + c2 + first;
    }
}
