// Streaming triad a[i] = b[i] + s * c[i] (STREAM): bandwidth-bound, one load
// per operand and one store per element, the simplest case of per-access
// checks that a loop-invariant root pointer lookup should make free.
#include "bench.h"

__global__ void triad(double *a, const double *b, const double *c, double s, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    a[i] = b[i] + s * c[i];
}

__global__ void fill(double *p, size_t n, double base) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + (double)(i % 1000);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  const size_t n = 1ull << 28;  // three arrays of 2 GiB
  const int iters = 25;         // 6 GiB moved per triad: ~2.3 ms apiece at ~2.6 TB/s, ~58 ms per repetition
  double *x, *y, *z;
  BENCH_CHECK(cudaMalloc(&x, n * sizeof(double)));
  BENCH_CHECK(cudaMalloc(&y, n * sizeof(double)));
  BENCH_CHECK(cudaMalloc(&z, n * sizeof(double)));
  int block = 256, grid = (int)((n + block - 1) / block);
  fill<<<grid, block>>>(y, n, 1.0);
  fill<<<grid, block>>>(z, n, 2.0);
  bench_kernel("triad", (const void *)triad, block, 0);
  int sms = 0;
  BENCH_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  int tgrid = sms * 16;
  double ms = bench_time(a, [&] {
    for (int it = 0; it < iters; it++) triad<<<tgrid, block>>>(x, y, z, 3.0, n);
  });
  std::vector<double> h(n);
  BENCH_CHECK(cudaMemcpy(h.data(), x, n * sizeof(double), cudaMemcpyDeviceToHost));
  bool valid = true;
  for (size_t i = 0; i < n; i += 4099)
    if (h[i] != (1.0 + (double)(i % 1000)) + 3.0 * (2.0 + (double)(i % 1000))) valid = false;
  bench_report("triad", ms, a, bench_hash(h.data(), n * sizeof(double)), valid);
  cudaFree(x); cudaFree(y); cudaFree(z);
  return valid ? 0 : 1;
}
