// Naive SGEMM C = A * B (row-major float, A is M x K, B is K x N), one thread
// per element of C with a K-long dot product straight out of global memory:
// every multiply-add is two loads, one warp-uniform (a row of A, a broadcast)
// and one coalesced across the warp (a row of B), so checks run at the rate of
// the arithmetic, with the same two root pointers on every access. N is not a
// multiple of the block's width: the edge guard is taken by a sliver of blocks.
#include <cmath>
#include "bench.h"

__global__ void gemm_naive(int M, int N, int K, const float *__restrict__ A,
                           const float *__restrict__ B, float *__restrict__ C) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  const float *a = A + (size_t)row * K;
  float acc = 0.0f;
  for (int k = 0; k < K; k++) acc += a[k] * B[(size_t)k * N + col];
  C[(size_t)row * N + col] = acc;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  const int M = 4096, N = 4100, K = 4096;  // 64 MiB per matrix; N % 32 != 0
  const int iters = 3;  // 137.6 GFLOP per gemm: ~24 ms apiece at ~5.7 TFLOP/s, ~72 ms per repetition
  std::vector<float> hA((size_t)M * K), hB((size_t)K * N);
  for (size_t i = 0; i < hA.size(); i++) hA[i] = bench_signed_hash((uint32_t)i, 0x1234u);
  for (size_t i = 0; i < hB.size(); i++) hB[i] = bench_signed_hash((uint32_t)i, 0xabcdu);
  float *dA, *dB, *dC;
  BENCH_CHECK(cudaMalloc(&dA, hA.size() * sizeof(float)));
  BENCH_CHECK(cudaMalloc(&dB, hB.size() * sizeof(float)));
  BENCH_CHECK(cudaMalloc(&dC, (size_t)M * N * sizeof(float)));
  BENCH_CHECK(cudaMemcpy(dA, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice));
  BENCH_CHECK(cudaMemcpy(dB, hB.data(), hB.size() * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(32, 8), grid((N + 31) / 32, (M + 7) / 8);  // 129 x 512 blocks
  bench_kernel("gemm_naive", (const void *)gemm_naive, block.x * block.y, 0);
  double ms = bench_time(a, [&] {
    for (int it = 0; it < iters; it++) gemm_naive<<<grid, block>>>(M, N, K, dA, dB, dC);
  });
  std::vector<float> hC((size_t)M * N);
  BENCH_CHECK(cudaMemcpy(hC.data(), dC, hC.size() * sizeof(float), cudaMemcpyDeviceToHost));
  // 2000 sampled elements plus the last column and row (the guarded edge), in
  // double; the error is measured against sum |a_k b_k|, the dot product's scale.
  bool valid = true;
  uint64_t s = 88172645463325252ull;
  for (int t = 0; t < 2000 + M + N; t++) {
    int r, c;
    if (t < 2000) {
      s ^= s << 13; s ^= s >> 7; s ^= s << 17;
      r = (int)(s % M); c = (int)((s >> 32) % N);
    } else if (t < 2000 + M) {
      r = t - 2000; c = N - 1;
      if (r % 64) continue;
    } else {
      r = M - 1; c = t - 2000 - M;
      if (c % 64 && c < N - 32) continue;
    }
    if (!bench_gemm_element_ok("gemm_naive", hA.data(), hB.data(), hC.data(), N, K, r, c, valid)) valid = false;
  }
  bench_report("gemm_naive", ms, a, bench_hash(hC.data(), hC.size() * sizeof(float)), valid);
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  return valid ? 0 : 1;
}
