// Dynamic shared memory (extern __shared__) carved into several arrays of different
// types (double, float, int, half, char) with alignment, sized at launch time.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

extern __shared__ __align__(16) unsigned char dyn_smem[];

// Layout: [double dsum[nwarps]] [float vals[blockDim]] [int keys[blockDim]]
//         [half hv[blockDim]] [char flags[blockDim]]
__global__ void mixed_smem_kernel(const float* __restrict__ x, const int* __restrict__ k,
                                  double* __restrict__ out_sum, int* __restrict__ out_key,
                                  __half* __restrict__ out_half, int n)
{
    int nwarps = (blockDim.x + 31) / 32;
    double* dsum = reinterpret_cast<double*>(dyn_smem);
    float* vals = reinterpret_cast<float*>(dsum + nwarps);
    int* keys = reinterpret_cast<int*>(vals + blockDim.x);
    __half* hv = reinterpret_cast<__half*>(keys + blockDim.x);
    char* flags = reinterpret_cast<char*>(hv + blockDim.x);

    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    vals[t] = (i < n) ? x[i] : 0.0f;
    keys[t] = (i < n) ? k[i] : -1;
    hv[t] = __float2half(vals[t]);
    flags[t] = (char)(keys[t] & 1);
    if (t < nwarps) dsum[t] = 0.0;
    __syncthreads();

    // Neighbour exchange through shared memory.
    int nb = (t + 1) % blockDim.x;
    float mixed = vals[t] + (flags[nb] ? vals[nb] : 0.0f);
    atomicAdd(&dsum[t / 32], (double)mixed);
    __syncthreads();

    if (i < n) {
        out_key[i] = keys[nb] + keys[t];
        out_half[i] = __hadd(hv[t], hv[nb]);
    }
    if (t == 0) {
        double s = 0.0;
        for (int w = 0; w < nwarps; ++w) s += dsum[w];
        out_sum[blockIdx.x] = s;
    }
}

// Second kernel reusing the same extern array as a plain float buffer.
__global__ void reverse_dynamic(float* data, int n)
{
    float* s = reinterpret_cast<float*>(dyn_smem);
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i < n) s[t] = data[i];
    __syncthreads();
    int src = blockDim.x - 1 - t;
    int gsrc = blockIdx.x * blockDim.x + src;
    if (i < n && gsrc < n) data[i] = s[src];
}
