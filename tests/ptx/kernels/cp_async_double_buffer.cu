// cp.async double buffering via inline PTX (cp.async.cg/ca, commit_group,
// wait_group) guarded by __CUDA_ARCH__ >= 800, with a plain-copy fallback for sm_70.
#include <cuda_runtime.h>

#define CHUNK 256   // floats per stage (one float4 per thread for 64 threads)

__device__ __forceinline__ void async_copy16(float* smem_dst, const float* gmem_src)
{
#if __CUDA_ARCH__ >= 800
    unsigned saddr = (unsigned)__cvta_generic_to_shared(smem_dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(saddr), "l"(gmem_src));
#else
    *reinterpret_cast<float4*>(smem_dst) = *reinterpret_cast<const float4*>(gmem_src);
#endif
}

__device__ __forceinline__ void async_copy4(float* smem_dst, const float* gmem_src)
{
#if __CUDA_ARCH__ >= 800
    unsigned saddr = (unsigned)__cvta_generic_to_shared(smem_dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"(saddr), "l"(gmem_src));
#else
    *smem_dst = *gmem_src;
#endif
}

__device__ __forceinline__ void async_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}

template <int N>
__device__ __forceinline__ void async_wait()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" :: "n"(N) : "memory");
#endif
}

// Each block streams nchunks consecutive CHUNK-float chunks and writes a scaled sum
// per thread. Launch with CHUNK/4 threads.
__global__ void stream_scale_dbuf(const float* __restrict__ in, float* __restrict__ out,
                                  const float* __restrict__ bias, int nchunks, float scale)
{
    __shared__ __align__(16) float buf[2][CHUNK];
    __shared__ float sbias[64];
    const float* src = in + (size_t)blockIdx.x * nchunks * CHUNK;
    int t = threadIdx.x;

    if (t < 64) async_copy4(&sbias[t], &bias[t]);
    async_copy16(&buf[0][t * 4], src + t * 4);
    async_commit();

    float acc = 0.0f;
    for (int c = 0; c < nchunks; ++c) {
        int cur = c & 1;
        if (c + 1 < nchunks)
            async_copy16(&buf[cur ^ 1][t * 4], src + (size_t)(c + 1) * CHUNK + t * 4);
        async_commit();
        async_wait<1>();           // stage c has landed
        __syncthreads();
        float4 v = *reinterpret_cast<float4*>(&buf[cur][((t + c) % (CHUNK / 4)) * 4]);
        acc += (v.x + v.y + v.z + v.w) * scale + sbias[(t + c) & 63];
        __syncthreads();
    }
    async_wait<0>();
    out[(size_t)blockIdx.x * blockDim.x + t] = acc;
}
