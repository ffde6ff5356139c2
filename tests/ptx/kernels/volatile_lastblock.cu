// volatile memory accesses: legacy warp-synchronous reduction on volatile shared
// memory, threadfence + atomicInc "last block" pattern, and a volatile spin flag.
#include <cuda_runtime.h>

__device__ unsigned int g_blocks_done = 0;

__device__ void warp_reduce_volatile(volatile float* s, int t)
{
    s[t] += s[t + 32]; __syncwarp();
    s[t] += s[t + 16]; __syncwarp();
    s[t] += s[t + 8];  __syncwarp();
    s[t] += s[t + 4];  __syncwarp();
    s[t] += s[t + 2];  __syncwarp();
    s[t] += s[t + 1];  __syncwarp();
}

// Launch with 256 threads per block.
__global__ void sum_lastblock(const float* __restrict__ in, volatile float* partial,
                              float* result, int n)
{
    __shared__ float s[256];
    __shared__ bool am_last;
    int t = threadIdx.x;
    float v = 0.0f;
    for (int i = blockIdx.x * 256 + t; i < n; i += gridDim.x * 256) v += in[i];
    s[t] = v;
    __syncthreads();
    for (int stride = 128; stride > 32; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) warp_reduce_volatile(s, t);

    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(&g_blocks_done, gridDim.x);
        am_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (am_last && t == 0) {
        float total = 0.0f;
        for (int b = 0; b < gridDim.x; ++b) total += partial[b];
        *result = total;
        g_blocks_done = 0;
    }
}

// Producer/consumer handoff between block 0 and block 1 through a volatile flag.
__global__ void flag_handoff(volatile int* flag, volatile float* mailbox, float* out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        mailbox[0] = 42.0f;
        __threadfence();
        *flag = 1;
    } else if (blockIdx.x == 1) {
        while (*flag == 0) { }
        out[0] = mailbox[0];
    }
}
