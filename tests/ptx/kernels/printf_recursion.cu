// Device-side printf and genuinely recursive __device__ functions (divide-and-
// conquer sum and a recursive quicksort on a per-block shared segment).
#include <cstdio>
#include <cuda_runtime.h>

__device__ float tree_sum(const float* a, int lo, int hi)
{
    if (hi - lo <= 4) {
        float s = 0.0f;
        for (int i = lo; i < hi; ++i) s += a[i];
        return s;
    }
    int mid = lo + (hi - lo) / 2;
    return tree_sum(a, lo, mid) + tree_sum(a, mid, hi);
}

__device__ void quicksort_rec(int* v, int lo, int hi, int depth)
{
    if (lo >= hi || depth > 32) return;
    int pivot = v[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (v[i] < pivot) ++i;
        while (v[j] > pivot) --j;
        if (i <= j) { int t = v[i]; v[i] = v[j]; v[j] = t; ++i; --j; }
    }
    quicksort_rec(v, lo, j, depth + 1);
    quicksort_rec(v, i, hi, depth + 1);
}

__global__ void recursive_sum_kernel(const float* __restrict__ in, float* __restrict__ out,
                                     int seg, int verbose)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    float r = tree_sum(in + (size_t)s * seg, 0, seg);
    out[s] = r;
    if (verbose && threadIdx.x == 0)
        printf("block %d thread %d: segment sum = %f (seg=%d)\n", blockIdx.x, threadIdx.x, r, seg);
}

__global__ void sort_segments(int* data, int seg, int* checksum)
{
    __shared__ int s[256];
    int n = min(seg, 256);
    int* g = data + (size_t)blockIdx.x * seg;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = g[i];
    __syncthreads();
    if (threadIdx.x == 0) {
        quicksort_rec(s, 0, n - 1, 0);
        if (s[0] > s[n - 1])
            printf("sort_segments: block %d unsorted! first=%d last=%d\n", blockIdx.x, s[0], s[n - 1]);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) g[i] = s[i];
    if (threadIdx.x == 0) atomicAdd(checksum, s[n / 2]);
}
