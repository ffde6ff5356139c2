// All-pairs n-body force/integration step with float4 positions tiled through
// shared memory (GPU Gems 3 style), softening, rsqrtf, and a double energy kernel.
#include <cuda_runtime.h>

#define NB_TILE 128

__device__ float3 body_interaction(float4 bi, float4 bj, float3 ai, float eps2)
{
    float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
    float d2 = r.x * r.x + r.y * r.y + r.z * r.z + eps2;
    float inv = rsqrtf(d2);
    float s = bj.w * inv * inv * inv;
    ai.x += r.x * s; ai.y += r.y * s; ai.z += r.z * s;
    return ai;
}

__global__ void nbody_step(const float4* __restrict__ pos, float4* __restrict__ new_pos,
                           float4* __restrict__ vel, int n, float dt, float eps2)
{
    __shared__ float4 sh[NB_TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 bi = (i < n) ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 acc = make_float3(0.f, 0.f, 0.f);

    for (int tile = 0; tile < n; tile += NB_TILE) {
        int j = tile + threadIdx.x;
        sh[threadIdx.x] = (j < n) ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < NB_TILE; ++k)
            acc = body_interaction(bi, sh[k], acc, eps2);
        __syncthreads();
    }
    if (i < n) {
        float4 v = vel[i];
        v.x += acc.x * dt; v.y += acc.y * dt; v.z += acc.z * dt;
        vel[i] = v;
        new_pos[i] = make_float4(bi.x + v.x * dt, bi.y + v.y * dt, bi.z + v.z * dt, bi.w);
    }
}

__global__ void nbody_potential_energy(const double* __restrict__ x, const double* __restrict__ y,
                                       const double* __restrict__ z, const double* __restrict__ m,
                                       int n, double* energy)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double e = 0.0;
    for (int j = i + 1; j < n; ++j) {
        double dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
        e -= m[i] * m[j] / sqrt(dx * dx + dy * dy + dz * dz + 1e-9);
    }
    atomicAdd(energy, e);
}
