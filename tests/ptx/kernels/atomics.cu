// Global atomics of every common flavour: atomicAdd on int/float/double, fire-and-
// forget red.global reductions (inline PTX, as CUTLASS/CUB do), atomicCAS loops,
// atomicMax/Min, atomicExch, atomicAnd/Or/Xor and atomicInc.
#include <cuda_runtime.h>

// Float max via a compare-and-swap loop on the bit pattern.
__device__ float atomic_max_float(float* addr, float val)
{
    int* iaddr = reinterpret_cast<int*>(addr);
    int old = *iaddr, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= val) break;
        old = atomicCAS(iaddr, assumed, __float_as_int(val));
    } while (assumed != old);
    return __int_as_float(old);
}

// Double multiply via 64-bit CAS.
__device__ double atomic_mul_double(double* addr, double val)
{
    unsigned long long* a = reinterpret_cast<unsigned long long*>(addr);
    unsigned long long old = *a, assumed;
    do {
        assumed = old;
        old = atomicCAS(a, assumed, __double_as_longlong(__longlong_as_double(assumed) * val));
    } while (assumed != old);
    return __longlong_as_double(old);
}

// Reductions whose result is never needed: emit red. directly.
__device__ __forceinline__ void red_add(float* p, float v)
{
    asm volatile("red.global.add.f32 [%0], %1;" :: "l"(__cvta_generic_to_global(p)), "f"(v) : "memory");
}
__device__ __forceinline__ void red_add(double* p, double v)
{
    asm volatile("red.relaxed.gpu.global.add.f64 [%0], %1;" :: "l"(__cvta_generic_to_global(p)), "d"(v) : "memory");
}
__device__ __forceinline__ void red_add(unsigned* p, unsigned v)
{
    asm volatile("red.global.add.u32 [%0], %1;" :: "l"(__cvta_generic_to_global(p)), "r"(v) : "memory");
}

struct Stats {
    int count;
    int max_key;
    unsigned int flags;
    float fsum;
    float fmax;
    double dsum;
    double dprod;
    int last_writer;
    unsigned int nonneg;
    float abs_sum;
};

__global__ void atomic_stats(const float* __restrict__ vals, const int* __restrict__ keys,
                             int n, Stats* stats, int* slot_ids, unsigned int* ring)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = vals[i];
    int k = keys[i];

    atomicAdd(&stats->fsum, v);                  // result unused
    red_add(&stats->dsum, (double)v * 0.5);      // red.relaxed.gpu.global.add.f64
    red_add(&stats->nonneg, v >= 0.0f ? 1u : 0u); // red.global.add.u32
    red_add(&stats->abs_sum, fabsf(v));           // red.global.add.f32
    int slot = atomicAdd(&stats->count, 1);      // atom.global.add.u32 (result used)
    slot_ids[i] = slot;

    atomicMax(&stats->max_key, k);
    atomicOr(&stats->flags, 1u << (k & 31));
    atomicXor(&stats->flags, (unsigned)k & 0x80000000u);
    atomic_max_float(&stats->fmax, v);
    if (k % 97 == 0)
        atomic_mul_double(&stats->dprod, 1.0 + v * 1e-3);

    int prev = atomicExch(&stats->last_writer, i);
    unsigned pos = atomicInc(&ring[0], 1023u);
    ring[1 + pos] = (unsigned)prev;
    atomicMin((int*)&ring[1025], k);
    atomicAnd(&ring[1026], ~(1u << (i & 31)));
}

__global__ void atomic_add_double_array(const double* in, double* bins, int n, int nbins)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        double v = in[i];
        int b = (int)(fabs(v) * nbins) % nbins;
        double old = atomicAdd(&bins[b], v);     // atom.global.add.f64
        if (old > 1e30) bins[nbins] = old;
    }
}
