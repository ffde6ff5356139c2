// 16-bit and 8-bit types: __half / __half2 arithmetic (cuda_fp16.h), signed/unsigned
// char and short loads/stores, int8 dot products, and double-precision accumulation.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>

__global__ void half2_axpy(const __half2* __restrict__ x, __half2* __restrict__ y,
                           __half alpha, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) {
        __half2 a2 = __half2half2(alpha);
        y[i] = __hfma2(a2, x[i], y[i]);
    }
}

__global__ void half_to_float_stats(const __half* __restrict__ h, float* __restrict__ f,
                                    double* __restrict__ sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half v = h[i];
    if (__hlt(v, __float2half(0.0f))) v = __hneg(v);
    float fv = __half2float(v);
    f[i] = fv;
    atomicAdd(sum, (double)fv);
}

__global__ void quantize_int8(const float* __restrict__ in, int8_t* __restrict__ q,
                              short* __restrict__ q16, float scale, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = rintf(in[i] / scale);
        q[i] = (int8_t)fmaxf(-128.0f, fminf(127.0f, v));
        q16[i] = (short)fmaxf(-32768.0f, fminf(32767.0f, v * 256.0f));
    }
}

__global__ void int8_dot(const char4* __restrict__ a, const char4* __restrict__ b,
                         int* __restrict__ out, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        char4 x = a[i], y = b[i];
#if __CUDA_ARCH__ >= 610
        int acc = __dp4a(*reinterpret_cast<const int*>(&x), *reinterpret_cast<const int*>(&y), 0);
#else
        int acc = x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
#endif
        out[i] = acc;
    }
}

__global__ void caesar_shift(const char* __restrict__ text, char* __restrict__ outtext,
                             unsigned char* __restrict__ hist, int len, int shift)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= len) return;
    char c = text[i];
    if (c >= 'a' && c <= 'z') c = 'a' + (c - 'a' + shift) % 26;
    else if (c >= 'A' && c <= 'Z') c = 'A' + (c - 'A' + shift) % 26;
    outtext[i] = c;
    hist[i] = (unsigned char)(c & 0x7f);
}

__global__ void kahan_sum_double(const double* __restrict__ x, double* __restrict__ out, int n)
{
    double s = 0.0, comp = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        double y = x[i] - comp;
        double t = s + y;
        comp = (t - s) - y;
        s = t;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
