// The assignment step of k-means: for each of 16M points of D = 32 float features (stored
// feature-major, so a warp's loads of one feature are coalesced), the index of the nearest
// of K = 64 centroids by squared Euclidean distance (first minimum wins), and the number of
// points per cluster: shared-memory counts per block, then global atomicAdd. The
// centroids are staged in shared memory and read as float4 broadcasts.
// For a bounds checker: compute-bound, so the cost is the per-access overhead relative to
// arithmetic: 32 strided coalesced loads per thread (one root pointer, offsets d * n + i),
// a tight inner loop of shared-memory loads, and data-dependent shared and global atomics.
#include <cmath>
#include "bench.h"

constexpr int D = 32;        // features per point
constexpr int K = 64;        // centroids
constexpr int KBLOCK = 256;  // threads per block, one point each

__host__ __device__ inline uint32_t mix32(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352du;
  x ^= x >> 15; x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// Feature d of point i, in [0, 1), exact in float.
__host__ __device__ inline float feature(size_t i, int d) {
  return (float)(mix32((uint32_t)(i * D + d)) >> 8) * (1.0f / 16777216.0f);
}

// pts[d * n + i]: feature d of point i.
__global__ void kmeans_assign(const float *pts, size_t n, const float *cent, int *assign,
                              unsigned *counts) {
  __shared__ float4 c4[K * D / 4];
  __shared__ unsigned cnt[K];
  const float4 *cg = reinterpret_cast<const float4 *>(cent);
  for (int t = threadIdx.x; t < K * D / 4; t += blockDim.x) c4[t] = cg[t];
  for (int t = threadIdx.x; t < K; t += blockDim.x) cnt[t] = 0;
  __syncthreads();
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) {
    float p[D];
#pragma unroll
    for (int d = 0; d < D; d++) p[d] = pts[d * n + i];
    float best = INFINITY;
    int bk = 0;
    for (int k = 0; k < K; k++) {
      float dist = 0.0f;
#pragma unroll
      for (int q = 0; q < D / 4; q++) {
        float4 c = c4[k * (D / 4) + q];
        float e0 = p[4 * q] - c.x, e1 = p[4 * q + 1] - c.y;
        float e2 = p[4 * q + 2] - c.z, e3 = p[4 * q + 3] - c.w;
        dist = fmaf(e0, e0, dist);
        dist = fmaf(e1, e1, dist);
        dist = fmaf(e2, e2, dist);
        dist = fmaf(e3, e3, dist);
      }
      if (dist < best) { best = dist; bk = k; }
    }
    assign[i] = bk;
    atomicAdd(&cnt[bk], 1u);
  }
  __syncthreads();
  for (int t = threadIdx.x; t < K; t += blockDim.x)
    if (cnt[t]) atomicAdd(&counts[t], cnt[t]);
}

__global__ void fill(float *pts, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    for (int d = 0; d < D; d++) pts[d * n + i] = feature(i, d);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  const size_t n = 1ull << 24;  // 16M points: 2 GiB of features
  const int iters = 19;         // 16M x 64 x 32 (sub + fma) = 69 G float instructions per step: ~2.3 ms at peak, ~3.1 ms measured on the H100, ~60 ms per repetition
  std::vector<float> hc(K * D);
  uint64_t st = 0x2545f4914f6cdd1dull;
  for (auto &c : hc) {
    st = st * 6364136223846793005ull + 1442695040888963407ull;  // LCG, fixed seed
    c = (float)(st >> 40) * (1.0f / 16777216.0f);
  }
  float *pts, *cent;
  int *assign;
  unsigned *counts;
  BENCH_CHECK(cudaMalloc(&pts, n * D * sizeof(float)));
  BENCH_CHECK(cudaMalloc(&cent, K * D * sizeof(float)));
  BENCH_CHECK(cudaMalloc(&assign, n * sizeof(int)));
  BENCH_CHECK(cudaMalloc(&counts, K * sizeof(unsigned)));
  BENCH_CHECK(cudaMemcpy(cent, hc.data(), K * D * sizeof(float), cudaMemcpyHostToDevice));
  const unsigned grid = (unsigned)((n + KBLOCK - 1) / KBLOCK);
  fill<<<grid, KBLOCK>>>(pts, n);
  bench_kernel("kmeans_assign", (const void *)kmeans_assign, KBLOCK, 0);
  double ms = bench_time(a, [&] {
    for (int it = 0; it < iters; it++) {
      BENCH_CHECK(cudaMemset(counts, 0, K * sizeof(unsigned)));
      kmeans_assign<<<grid, KBLOCK>>>(pts, n, cent, assign, counts);
    }
  });
  std::vector<int> h(n);
  std::vector<unsigned> hcnt(K), rcnt(K, 0);
  BENCH_CHECK(cudaMemcpy(h.data(), assign, n * sizeof(int), cudaMemcpyDeviceToHost));
  BENCH_CHECK(cudaMemcpy(hcnt.data(), counts, K * sizeof(unsigned), cudaMemcpyDeviceToHost));
  bool valid = true;
  // Counts: exact, from the full assignment.
  for (size_t i = 0; i < n; i++) {
    if (h[i] < 0 || h[i] >= K) { valid = false; break; }
    rcnt[h[i]]++;
  }
  if (hcnt != rcnt) valid = false;
  // Assignments, every 61st point: the chosen centroid is nearest to within 1e-4 (relative),
  // by distances computed in double (near-ties may round either way in float).
  for (size_t i = 0; i < n && valid; i += 61) {
    double best = INFINITY, chosen = 0;
    for (int k = 0; k < K; k++) {
      double dist = 0;
      for (int d = 0; d < D; d++) {
        double e = (double)feature(i, d) - (double)hc[k * D + d];
        dist += e * e;
      }
      best = std::min(best, dist);
      if (k == h[i]) chosen = dist;
    }
    if (chosen > best * (1 + 1e-4)) valid = false;
  }
  uint64_t sum = bench_hash(h.data(), n * sizeof(int));
  sum = bench_hash(hcnt.data(), K * sizeof(unsigned), sum);
  bench_report("kmeans", ms, a, sum, valid);
  cudaFree(pts); cudaFree(cent); cudaFree(assign); cudaFree(counts);
  return valid ? 0 : 1;
}
