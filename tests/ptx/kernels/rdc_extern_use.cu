// CORPUS-FLAGS: -rdc=true
// Relocatable device code, uses: extern __device__ array/functions from rdc_extern_def.cu.
#include <cuda_runtime.h>

extern __device__ float g_rdc_table[1024];
extern __device__ int g_rdc_hits[64];
extern __device__ float rdc_lookup(int key);
extern __device__ void rdc_record(int bucket, float v);
extern __device__ void rdc_scale_inplace(float* p, int n, float s);

__global__ void rdc_apply(const int* __restrict__ keys, const float* __restrict__ x,
                          float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i];
    float v = x[i] * rdc_lookup(k) + g_rdc_table[(k * 7) & 1023];
    y[i] = v;
    rdc_record(k, v);
}

__global__ void rdc_rows(float* data, int rows, int cols, float s)
{
    __shared__ float row[256];
    int r = blockIdx.x;
    if (r >= rows) return;
    int c = min(cols, 256);
    for (int j = threadIdx.x; j < c; j += blockDim.x) row[j] = data[(size_t)r * cols + j];
    __syncthreads();
    if (threadIdx.x == 0) rdc_scale_inplace(row, c, s);   // extern fn given a shared pointer
    __syncthreads();
    for (int j = threadIdx.x; j < c; j += blockDim.x) data[(size_t)r * cols + j] = row[j];
}

__global__ void rdc_read_hits(int* out)
{
    int i = threadIdx.x;
    if (i < 64) out[i] = g_rdc_hits[i];
}
