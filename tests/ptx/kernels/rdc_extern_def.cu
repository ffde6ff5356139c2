// CORPUS-FLAGS: -rdc=true
// Relocatable device code, definitions: __device__ functions/arrays used as extern by rdc_extern_use.cu.
#include <cuda_runtime.h>

__device__ float g_rdc_table[1024];
__device__ int g_rdc_hits[64];
__device__ unsigned long long g_rdc_total;

__device__ float rdc_lookup(int key)
{
    return g_rdc_table[key & 1023];
}

__device__ __noinline__ void rdc_record(int bucket, float v)
{
    atomicAdd(&g_rdc_hits[bucket & 63], 1);
    atomicAdd(&g_rdc_total, (unsigned long long)(v > 0.0f));
}

__device__ void rdc_scale_inplace(float* p, int n, float s)
{
    for (int i = 0; i < n; ++i) p[i] *= s * g_rdc_table[i & 1023];
}

__global__ void rdc_init_table(const float* __restrict__ src, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 1024) g_rdc_table[i] = (i < n) ? src[i] : 1.0f;
    if (i < 64) g_rdc_hits[i] = 0;
    if (i == 0) g_rdc_total = 0ull;
}
