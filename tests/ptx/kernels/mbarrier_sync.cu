// mbarrier via inline PTX (init / arrive / test_wait with phase tracking) and
// cuda::barrier with cuda::memcpy_async, guarded by __CUDA_ARCH__ >= 800.
#include <cuda_runtime.h>
#include <cuda/barrier>

__device__ __forceinline__ void mbar_init(unsigned long long* bar, unsigned count)
{
#if __CUDA_ARCH__ >= 800
    unsigned a = (unsigned)__cvta_generic_to_shared(bar);
    asm volatile("mbarrier.init.shared.b64 [%0], %1;\n" :: "r"(a), "r"(count) : "memory");
#endif
}

__device__ __forceinline__ void mbar_arrive_wait(unsigned long long* bar)
{
#if __CUDA_ARCH__ >= 800
    unsigned a = (unsigned)__cvta_generic_to_shared(bar);
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];\n" : "=l"(state) : "r"(a) : "memory");
    unsigned done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.test_wait.shared.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}\n"
                     : "=r"(done) : "r"(a), "l"(state) : "memory");
    }
#else
    __syncthreads();
#endif
}

// Iterative smoothing where each phase is separated by the same mbarrier.
__global__ void smooth_mbarrier(const float* __restrict__ in, float* __restrict__ out, int iters)
{
    __shared__ float buf[2][256];
    __shared__ __align__(8) unsigned long long bar;
    int t = threadIdx.x, n = blockDim.x;
    if (t == 0) mbar_init(&bar, n);
    __syncthreads();

    buf[0][t] = in[blockIdx.x * n + t];
    mbar_arrive_wait(&bar);
    int cur = 0;
    for (int it = 0; it < iters; ++it) {
        float l = buf[cur][(t + n - 1) % n], r = buf[cur][(t + 1) % n];
        buf[cur ^ 1][t] = 0.25f * l + 0.5f * buf[cur][t] + 0.25f * r;
        cur ^= 1;
        mbar_arrive_wait(&bar);   // phase flips each iteration
    }
    out[blockIdx.x * n + t] = buf[cur][t];
}

// cuda::barrier + cuda::memcpy_async (uses mbarrier/cp.async on sm_80+).
__global__ void block_copy_barrier(const int* __restrict__ in, int* __restrict__ out, int per_block)
{
    __shared__ int tile[512];
#if __CUDA_ARCH__ >= 800
    #pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> b;
    if (threadIdx.x == 0) init(&b, blockDim.x);
    __syncthreads();
    int cnt = min(per_block, 512);
    if (threadIdx.x == 0)
        cuda::memcpy_async(tile, in + (size_t)blockIdx.x * per_block, sizeof(int) * cnt, b);
    b.arrive_and_wait();
#else
    int cnt = min(per_block, 512);
    for (int i = threadIdx.x; i < cnt; i += blockDim.x)
        tile[i] = in[(size_t)blockIdx.x * per_block + i];
    __syncthreads();
#endif
    for (int i = threadIdx.x; i < cnt; i += blockDim.x)
        out[(size_t)blockIdx.x * per_block + i] = tile[cnt - 1 - i] * 2;
}
