// Per-thread local arrays too large / too dynamically indexed for registers:
// float buf[512] addressed with runtime indices (forces ld.local/st.local).
#include <cuda_runtime.h>

#define LBUF 512

// Each thread builds a private lookup table and gathers from it with
// data-dependent indices (e.g. a per-thread permutation/sort scratch).
__global__ void local_table_gather(const float* __restrict__ seeds, const int* __restrict__ idx,
                                   float* __restrict__ out, int n, int nlookups)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n) return;

    float buf[LBUF];
    float s = seeds[tid];
    for (int i = 0; i < LBUF; ++i) {
        s = s * 1.000173f + 0.5f;
        buf[i] = s;
    }

    float acc = 0.0f;
    for (int j = 0; j < nlookups; ++j) {
        int k = idx[(size_t)tid * nlookups + j] & (LBUF - 1);
        acc += buf[k];
        buf[(k * 7 + 3) & (LBUF - 1)] = acc;    // dynamic local store
    }
    out[tid] = acc + buf[tid & (LBUF - 1)];
}

// Per-thread insertion sort into a local array of runtime length (<= 256).
__global__ void local_insertion_sort(const int* __restrict__ in, int* __restrict__ out,
                                     int rows, int len)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    int a[256];
    len = min(len, 256);
    const int* row = in + (size_t)r * len;
    for (int i = 0; i < len; ++i) {
        int v = row[i];
        int j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            --j;
        }
        a[j + 1] = v;
    }
    int* orow = out + (size_t)r * len;
    for (int i = 0; i < len; ++i)
        orow[i] = a[i];
}
