// Row softmax y = exp(x - max) / sum(exp(x - max)) over a [rows x cols] float
// matrix, one 256-thread block per row: each thread keeps its strided share of
// the row in registers (one read of x, one write of y), the max and the sum
// are block reductions (warp shuffles, then one value per warp through shared
// memory). A bandwidth-bound kernel with many short-lived blocks, each with a
// fresh row base pointer, and a column guard on every access (cols is not a
// multiple of the block, so the last stride of each row is partial).
#include <cmath>
#include "bench.h"

constexpr int THREADS = 256, WARPS = THREADS / 32, PER = 16;  // rows of up to 4096 columns

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Every thread gets the block's result, bit-identical (butterfly order is fixed).
template <bool MAX>
__device__ __forceinline__ float block_reduce(float v, float *red) {
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = MAX ? warp_max(v) : warp_sum(v);
  if (lane == 0) red[warp] = v;
  __syncthreads();
  v = lane < WARPS ? red[lane] : (MAX ? -INFINITY : 0.0f);
  v = MAX ? warp_max(v) : warp_sum(v);
  __syncthreads();  // red is reused by the next reduction
  return v;
}

__global__ void __launch_bounds__(THREADS)
softmax_rows(int rows, int cols, const float *__restrict__ x, float *__restrict__ y) {
  __shared__ float red[WARPS];
  int row = blockIdx.x;
  if (row >= rows) return;
  const float *xr = x + (size_t)row * cols;
  float *yr = y + (size_t)row * cols;
  float v[PER];
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < PER; i++) {
    int c = threadIdx.x + i * THREADS;
    v[i] = c < cols ? xr[c] : -INFINITY;
    m = fmaxf(m, v[i]);
  }
  m = block_reduce<true>(m, red);
  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < PER; i++) {
    int c = threadIdx.x + i * THREADS;
    v[i] = c < cols ? expf(v[i] - m) : 0.0f;
    s += v[i];
  }
  s = block_reduce<false>(s, red);
  float inv = 1.0f / s;
#pragma unroll
  for (int i = 0; i < PER; i++) {
    int c = threadIdx.x + i * THREADS;
    if (c < cols) yr[c] = v[i] * inv;
  }
}

// A value in [-4, 4) from an index, identical on host and device (exact arithmetic).
__host__ __device__ inline float hval(uint32_t i) {
  uint32_t h = i * 0x9E3779B1u ^ 0x2545F491u;
  h ^= h >> 16; h *= 0x85EBCA6Bu; h ^= h >> 13; h *= 0xC2B2AE35u; h ^= h >> 16;
  return (float)(h >> 8) * (8.0f / 16777216.0f) - 4.0f;
}

__global__ void fill(float *p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p[i] = hval((uint32_t)i);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  const int rows = 65536, cols = 4000;  // 1000 MiB per matrix; cols % 256 != 0
  const int iters = 80;  // 2.1 GB moved per pass: ~0.7 ms apiece at ~3 TB/s, ~56 ms per repetition
  const size_t n = (size_t)rows * cols;
  float *x, *y;
  BENCH_CHECK(cudaMalloc(&x, n * sizeof(float)));
  BENCH_CHECK(cudaMalloc(&y, n * sizeof(float)));
  int sms = 0;
  BENCH_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  fill<<<sms * 16, 256>>>(x, n);
  bench_kernel("softmax_rows", (const void *)softmax_rows, THREADS, 0);
  double ms = bench_time(a, [&] {
    for (int it = 0; it < iters; it++) softmax_rows<<<rows, THREADS>>>(rows, cols, x, y);
  });
  std::vector<float> h(n);
  BENCH_CHECK(cudaMemcpy(h.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
  // 64 sampled rows and the last one, in double, to a relative 1e-4 per element.
  bool valid = true;
  uint64_t s = 88172645463325252ull;
  std::vector<double> e(cols);
  for (int t = 0; t <= 64; t++) {
    int r;
    if (t < 64) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; r = (int)(s % rows); }
    else r = rows - 1;
    double m = -INFINITY, sum = 0;
    for (int c = 0; c < cols; c++) m = std::max(m, (double)hval((uint32_t)((size_t)r * cols + c)));
    for (int c = 0; c < cols; c++) sum += e[c] = exp((double)hval((uint32_t)((size_t)r * cols + c)) - m);
    for (int c = 0; c < cols; c++) {
      double ref = e[c] / sum, got = h[(size_t)r * cols + c];
      if (fabs(got - ref) > 1e-4 * ref) {
        if (valid) fprintf(stderr, "softmax: y[%d][%d] = %.9g, expected %.9g\n", r, c, got, ref);
        valid = false;
      }
    }
  }
  bench_report("softmax", ms, a, bench_hash(h.data(), n * sizeof(float)), valid);
  cudaFree(x); cudaFree(y);
  return valid ? 0 : 1;
}
