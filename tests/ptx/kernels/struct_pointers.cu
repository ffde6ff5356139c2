// Structs holding device pointers: array-of-structs, a struct of pointers passed
// by value to a kernel, and pointer-to-pointer / linked-list chasing.
#include <cuda_runtime.h>

struct Particle {
    float3 pos;
    float3 vel;
    float mass;
    int id;
};

struct SoAView {            // passed by value as a kernel parameter
    float* x;
    float* y;
    const float* w;
    int* tag;
    int n;
};

struct Node {
    int value;
    int pad;
    Node* next;
};

struct Batch {
    const float* const* rows;   // pointer to an array of row pointers
    const int* lengths;
    float* sums;
    int count;
};

__global__ void aos_integrate(Particle* particles, int n, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle p = particles[i];
    float inv = 1.0f / p.mass;
    p.vel.y -= 9.81f * dt * inv;
    p.pos.x += p.vel.x * dt;
    p.pos.y += p.vel.y * dt;
    p.pos.z += p.vel.z * dt;
    particles[i].pos = p.pos;
    particles[i].vel.y = p.vel.y;
}

__global__ void soa_by_value(SoAView v, float a)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < v.n; i += gridDim.x * blockDim.x) {
        float r = v.x[i] * a + v.y[i] * v.w[i];
        v.y[i] = r;
        v.tag[i] = r > 0.0f ? 1 : 0;
    }
}

__global__ void list_chase(Node* const* heads, int nlists, int* out_sum, int max_steps)
{
    int l = blockIdx.x * blockDim.x + threadIdx.x;
    if (l >= nlists) return;
    int sum = 0, steps = 0;
    for (Node* p = heads[l]; p != nullptr && steps < max_steps; p = p->next, ++steps) {
        sum += p->value;
        p->pad = steps;            // write through the chased pointer
    }
    out_sum[l] = sum;
}

__global__ void ragged_rows(Batch b)
{
    int r = blockIdx.x;
    if (r >= b.count) return;
    const float* row = b.rows[r];
    int len = b.lengths[r];
    float s = 0.0f;
    for (int j = threadIdx.x; j < len; j += blockDim.x)
        s += row[j];
    atomicAdd(&b.sums[r], s);
}
