// Work-efficient (Blelloch) exclusive prefix scan in shared memory with
// bank-conflict-avoiding padding; block sums written out for a second pass.
#include <cuda_runtime.h>

#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

template <int BLOCK>
__global__ void blelloch_scan(const int* __restrict__ in, int* __restrict__ out,
                              int* __restrict__ block_sums, int n)
{
    __shared__ int temp[2 * BLOCK + (2 * BLOCK >> LOG_NUM_BANKS)];
    int tid = threadIdx.x;
    int base = blockIdx.x * 2 * BLOCK;

    int ai = tid, bi = tid + BLOCK;
    int oa = CONFLICT_FREE_OFFSET(ai), ob = CONFLICT_FREE_OFFSET(bi);
    temp[ai + oa] = (base + ai < n) ? in[base + ai] : 0;
    temp[bi + ob] = (base + bi < n) ? in[base + bi] : 0;

    int offset = 1;
    for (int d = BLOCK; d > 0; d >>= 1) {            // up-sweep
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1, b = offset * (2 * tid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset <<= 1;
    }
    if (tid == 0) {
        int last = 2 * BLOCK - 1 + CONFLICT_FREE_OFFSET(2 * BLOCK - 1);
        block_sums[blockIdx.x] = temp[last];
        temp[last] = 0;
    }
    for (int d = 1; d < 2 * BLOCK; d <<= 1) {         // down-sweep
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1, b = offset * (2 * tid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            int t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    if (base + ai < n) out[base + ai] = temp[ai + oa];
    if (base + bi < n) out[base + bi] = temp[bi + ob];
}

__global__ void add_block_offsets(int* data, const int* scanned_sums, int n, int per_block)
{
    int i = blockIdx.x * per_block + threadIdx.x;
    int add = scanned_sums[blockIdx.x];
    for (; i < min(n, (blockIdx.x + 1) * per_block); i += blockDim.x)
        data[i] += add;
}

template __global__ void blelloch_scan<128>(const int*, int*, int*, int);
template __global__ void blelloch_scan<512>(const int*, int*, int*, int);
