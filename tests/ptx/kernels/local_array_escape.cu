// Local arrays whose address escapes into __noinline__ helpers (stack frame that
// must live in local memory and be passed as a generic pointer).
#include <cuda_runtime.h>

__device__ __noinline__ void fill_window(float* w, const float* src, int len, int stride)
{
    for (int i = 0; i < len; ++i)
        w[i] = src[(size_t)i * stride];
}

__device__ __noinline__ float median_of(float* w, int len)
{
    // Partial selection sort up to the middle element, in place.
    for (int i = 0; i <= len / 2; ++i) {
        int m = i;
        for (int j = i + 1; j < len; ++j)
            if (w[j] < w[m]) m = j;
        float t = w[i]; w[i] = w[m]; w[m] = t;
    }
    return w[len / 2];
}

// Column-wise median filter: each thread gathers a window of one column.
__global__ void median_filter_cols(const float* __restrict__ img, float* __restrict__ out,
                                   int width, int height, int win)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x >= width) return;
    float window[64];
    win = min(win, 64);
    int y0 = max(0, min(y - win / 2, height - win));
    fill_window(window, img + (size_t)y0 * width + x, win, width);
    out[(size_t)y * width + x] = median_of(window, win);
}

struct Accum { double sum; double sq; int count; int pad; };

__device__ __noinline__ void accumulate(Accum* a, const float* v, int n)
{
    for (int i = 0; i < n; ++i) { a->sum += v[i]; a->sq += (double)v[i] * v[i]; a->count++; }
}

__global__ void row_moments(const float* data, double* mean, double* var, int cols)
{
    Accum acc = {0.0, 0.0, 0, 0};
    accumulate(&acc, data + (size_t)blockIdx.x * cols + threadIdx.x * (cols / blockDim.x),
               cols / blockDim.x);
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    mean[r] = acc.sum / max(acc.count, 1);
    var[r] = acc.sq / max(acc.count, 1) - mean[r] * mean[r];
}
