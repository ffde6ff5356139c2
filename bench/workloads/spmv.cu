// CSR sparse matrix-vector product y = A x with float values, one warp per row: the lanes
// stride over the row's nonzeros, each multiplying by x gathered through the column index,
// and fold their sums with __shfl_down_sync (a fixed order). The matrix is synthetic:
// 4M x 4M, 8..64 nonzeros per row, uniformly random columns from a fixed-seed generator.
// For a bounds checker: indirect, data-dependent gathers x[cols[j]] (the index loaded
// from memory just before), loop bounds read from rowptr, short rows that leave lanes
// idle, and three read streams of different element counts than the output.
#include <cmath>
#include "bench.h"

constexpr int VBLOCK = 256;   // threads per block: 8 rows per block

__global__ void spmv_warp(int m, const int *rowptr, const int *cols, const float *vals,
                          const float *x, float *y) {
  int row = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32);
  int lane = threadIdx.x & 31;
  if (row >= m) return;  // the whole warp: row is the same for its 32 lanes
  int beg = rowptr[row], end = rowptr[row + 1];
  float s = 0.0f;
  for (int j = beg + lane; j < end; j += 32) s += vals[j] * x[cols[j]];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) y[row] = s;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  const int m = 1 << 22;  // rows = columns; ~151M nonzeros: 1.1 GiB of values and column indices
  const int iters = 44;   // 1.2 GiB streamed + 151M gathers of x (16 MiB, L2-resident) per product: ~1.4 ms apiece (measured on the H100; latency-bound), ~63 ms per repetition
  std::vector<int> hrow(m + 1), hcol;
  std::vector<float> hval, hx(m);
  uint64_t st = 12345;  // splitmix64's state: the fixed seed of the matrix and the vector
  hrow[0] = 0;
  for (int r = 0; r < m; r++) hrow[r + 1] = hrow[r] + 8 + (int)(bench_splitmix64(st) % 57);
  const size_t nnz = (size_t)hrow[m];
  hcol.resize(nnz);
  hval.resize(nnz);
  for (size_t j = 0; j < nnz; j++) {
    uint64_t z = bench_splitmix64(st);
    hcol[j] = (int)(z % (uint64_t)m);
    hval[j] = 0.5f + (float)(z >> 40) * (1.0f / 16777216.0f);  // [0.5, 1.5)
  }
  for (int c = 0; c < m; c++) hx[c] = (float)(bench_splitmix64(st) >> 40) * (1.0f / 16777216.0f);  // [0, 1)
  int *rowptr, *cols;
  float *vals, *x, *y;
  BENCH_CHECK(cudaMalloc(&rowptr, (m + 1) * sizeof(int)));
  BENCH_CHECK(cudaMalloc(&cols, nnz * sizeof(int)));
  BENCH_CHECK(cudaMalloc(&vals, nnz * sizeof(float)));
  BENCH_CHECK(cudaMalloc(&x, m * sizeof(float)));
  BENCH_CHECK(cudaMalloc(&y, m * sizeof(float)));
  BENCH_CHECK(cudaMemcpy(rowptr, hrow.data(), (m + 1) * sizeof(int), cudaMemcpyHostToDevice));
  BENCH_CHECK(cudaMemcpy(cols, hcol.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  BENCH_CHECK(cudaMemcpy(vals, hval.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
  BENCH_CHECK(cudaMemcpy(x, hx.data(), m * sizeof(float), cudaMemcpyHostToDevice));
  bench_kernel("spmv_warp", (const void *)spmv_warp, VBLOCK, 0);
  const unsigned grid = (unsigned)(((size_t)m * 32 + VBLOCK - 1) / VBLOCK);
  double ms = bench_time(a, [&] {
    for (int it = 0; it < iters; it++) spmv_warp<<<grid, VBLOCK>>>(m, rowptr, cols, vals, x, y);
  });
  std::vector<float> h(m);
  BENCH_CHECK(cudaMemcpy(h.data(), y, m * sizeof(float), cudaMemcpyDeviceToHost));
  // CPU reference in double; every term is positive, so relative error is well defined.
  bool valid = true;
  for (int r = 0; r < m; r++) {
    double s = 0;
    for (int j = hrow[r]; j < hrow[r + 1]; j++) s += (double)hval[j] * (double)hx[hcol[j]];
    if (fabs((double)h[r] - s) > 1e-4 * fabs(s)) valid = false;
  }
  bench_report("spmv", ms, a, bench_hash(h.data(), m * sizeof(float)), valid);
  cudaFree(rowptr); cudaFree(cols); cudaFree(vals); cudaFree(x); cudaFree(y);
  return valid ? 0 : 1;
}
