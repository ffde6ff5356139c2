// k-means: assignment of points (SoA, runtime dimension) to nearest centroid held in
// dynamic shared memory, membership-change counter, and centroid accumulation.
#include <cuda_runtime.h>
#include <cfloat>

__global__ void kmeans_assign(const float* __restrict__ points, const float* __restrict__ centroids,
                              int* __restrict__ membership, int* __restrict__ changed,
                              int npoints, int nclusters, int dim)
{
    extern __shared__ float s_cent[];              // nclusters * dim floats
    for (int i = threadIdx.x; i < nclusters * dim; i += blockDim.x)
        s_cent[i] = centroids[i];
    __syncthreads();

    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints) return;

    int best = 0;
    float best_d = FLT_MAX;
    for (int c = 0; c < nclusters; ++c) {
        float d = 0.0f;
        for (int k = 0; k < dim; ++k) {
            float diff = points[(size_t)k * npoints + p] - s_cent[c * dim + k];   // SoA layout
            d += diff * diff;
        }
        if (d < best_d) { best_d = d; best = c; }
    }
    int old = membership[p];
    if (old != best) {
        membership[p] = best;
        atomicAdd(changed, 1);
    }
}

__global__ void kmeans_accumulate(const float* __restrict__ points, const int* __restrict__ membership,
                                  float* __restrict__ new_sums, int* __restrict__ counts,
                                  int npoints, int dim)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints) return;
    int c = membership[p];
    atomicAdd(&counts[c], 1);
    for (int k = 0; k < dim; ++k)
        atomicAdd(&new_sums[c * dim + k], points[(size_t)k * npoints + p]);
}

__global__ void kmeans_update(float* __restrict__ centroids, const float* __restrict__ sums,
                              const int* __restrict__ counts, int nclusters, int dim)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nclusters * dim) {
        int cnt = counts[i / dim];
        if (cnt > 0) centroids[i] = sums[i] / cnt;
    }
}
