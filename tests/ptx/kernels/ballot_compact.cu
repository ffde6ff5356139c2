// Warp vote and predicated stores: stream compaction with __ballot_sync + __popc,
// __any_sync/__all_sync early exits, __activemask and conditional/selected stores.
#include <cuda_runtime.h>

__global__ void compact_positive(const float* __restrict__ in, float* __restrict__ out,
                                 int* __restrict__ out_count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float v = (i < n) ? in[i] : 0.0f;
    bool keep = (i < n) && (v > 0.0f);

    unsigned mask = __ballot_sync(0xffffffffu, keep);
    int warp_total = __popc(mask);
    int base = 0;
    if (lane == 0 && warp_total)
        base = atomicAdd(out_count, warp_total);
    base = __shfl_sync(0xffffffffu, base, 0);
    int pos = base + __popc(mask & ((1u << lane) - 1));
    if (keep)
        out[pos] = v;                     // predicated store
}

__global__ void threshold_flags(const int* __restrict__ in, int* __restrict__ out,
                                unsigned* __restrict__ warp_masks, int n, int thresh)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = (i < n) ? in[i] : 0;
    bool big = (i < n) && x > thresh;
    if (!__any_sync(0xffffffffu, big)) {
        if (i < n) out[i] = 0;
        return;
    }
    bool all_big = __all_sync(0xffffffffu, big);
    unsigned m = __ballot_sync(0xffffffffu, big);
    if ((threadIdx.x & 31) == 0)
        warp_masks[i >> 5] = all_big ? 0xffffffffu : m;
    if (i < n)
        out[i] = big ? x - thresh : -1;   // select
    if (big && (x & 1))
        out[i] |= 0x40000000;             // conditional read-modify-write
}

__global__ void active_lane_stats(const int* in, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] != 0) {            // divergent region
        unsigned active = __activemask();
        int leader = __ffs(active) - 1;
        int cnt = __popc(active);
        if ((threadIdx.x & 31) == leader)
            atomicAdd(&out[blockIdx.x], cnt);
    }
}
