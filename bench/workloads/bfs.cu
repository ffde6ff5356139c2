// Level-synchronous breadth-first search on a synthetic CSR graph (2^23 vertices,
// out-degree uniform in [8, 24], random targets from a fixed-seed generator),
// the top-down BFS of Rodinia/Gunrock-style benchmarks: one launch per level,
// one thread per frontier vertex, a frontier queue built with atomicAdd on a
// per-level counter that the host reads after each level. The result is the
// level of every vertex, which is deterministic although the queue order is not.
// For a bounds checker it is the irregular case: chains of data-dependent
// indices (queue -> row offsets -> column indices -> level), short
// variable-length row scans, atomicCAS/atomicAdd on scattered and on single
// addresses, and many short launches separated by host synchronisation.
#include "bench.h"

constexpr int kMaxLevels = 1024;

// Every vertex unvisited except src, queue = {src}, every level counter zero.
__global__ void bfs_init(int *level, int n, int src, int *queue, int *counts, int ncounts) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (size_t i = tid; i < (size_t)n; i += stride) level[i] = i == (size_t)src ? 0 : -1;
  for (size_t i = tid; i < (size_t)ncounts; i += stride) counts[i] = 0;
  if (tid == 0) queue[0] = src;
}

// Expands the frontier qin[0, qsize): every unvisited neighbour gets level
// `next` (the first thread to claim it with atomicCAS appends it to qout).
__global__ void bfs_expand(const int *__restrict__ row, const int *__restrict__ col, int *level,
                           const int *__restrict__ qin, int qsize, int *qout, int *count,
                           int next) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < qsize; i += gridDim.x * blockDim.x) {
    int u = qin[i];
    int end = row[u + 1];
    for (int e = row[u]; e < end; e++) {
      int v = col[e];
      if (level[v] < 0 && atomicCAS(&level[v], -1, next) == -1) qout[atomicAdd(count, 1)] = v;
    }
  }
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  const int n = 1 << 23;  // 8 Mi vertices, ~134 M edges: 537 MB of column indices
  const int src = 0;
  const int iters = 20;   // each BFS scans all ~134 M edges once (col 537 MB streamed, ~134 M
                          // random probes of the 32 MB level array, mostly L2 hits) in ~9
                          // levels: ~3 ms per BFS incl. ~9 host reads, ~60 ms per repetition

  // The graph, generated on the host from a fixed seed.
  std::vector<int> row(n + 1);
  uint64_t seed = 0x5eed0bf5ull;
  row[0] = 0;
  for (int u = 0; u < n; u++) row[u + 1] = row[u] + 8 + (int)(bench_splitmix64(seed) % 17);
  const size_t m = (size_t)row[n];
  std::vector<int> col(m);
  for (size_t e = 0; e < m; e++) col[e] = (int)(bench_splitmix64(seed) % (uint64_t)n);

  int *d_row, *d_col, *d_level, *d_q0, *d_q1, *d_counts;
  BENCH_CHECK(cudaMalloc(&d_row, (n + 1) * sizeof(int)));
  BENCH_CHECK(cudaMalloc(&d_col, m * sizeof(int)));
  BENCH_CHECK(cudaMalloc(&d_level, n * sizeof(int)));
  BENCH_CHECK(cudaMalloc(&d_q0, n * sizeof(int)));
  BENCH_CHECK(cudaMalloc(&d_q1, n * sizeof(int)));
  BENCH_CHECK(cudaMalloc(&d_counts, kMaxLevels * sizeof(int)));
  BENCH_CHECK(cudaMemcpy(d_row, row.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  BENCH_CHECK(cudaMemcpy(d_col, col.data(), m * sizeof(int), cudaMemcpyHostToDevice));

  int sms = 0;
  BENCH_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int block = 256;
  const int init_grid = sms * 16;
  bench_kernel("bfs_init", (const void *)bfs_init, block, 0);
  bench_kernel("bfs_expand", (const void *)bfs_expand, block, 0);

  int depth = 0;
  double ms = bench_time(a, [&] {
    for (int it = 0; it < iters; it++) {
      bfs_init<<<init_grid, block>>>(d_level, n, src, d_q0, d_counts, kMaxLevels);
      int *qin = d_q0, *qout = d_q1;
      int fsize = 1;
      depth = 0;
      while (fsize > 0) {
        if (depth >= kMaxLevels) {
          fprintf(stderr, "bfs: more than %d levels\n", kMaxLevels);
          exit(2);
        }
        int grid = std::min((fsize + block - 1) / block, sms * 64);
        bfs_expand<<<grid, block>>>(d_row, d_col, d_level, qin, fsize, qout, d_counts + depth,
                                    depth + 1);
        BENCH_CHECK(cudaMemcpy(&fsize, d_counts + depth, sizeof(int), cudaMemcpyDeviceToHost));
        std::swap(qin, qout);
        depth++;
      }
    }
  });

  std::vector<int> h(n);
  BENCH_CHECK(cudaMemcpy(h.data(), d_level, n * sizeof(int), cudaMemcpyDeviceToHost));

  // CPU reference: the same top-down BFS.
  std::vector<int> ref(n, -1), q;
  q.reserve(n);
  ref[src] = 0;
  q.push_back(src);
  for (size_t head = 0; head < q.size(); head++) {
    int u = q[head];
    for (int e = row[u]; e < row[u + 1]; e++)
      if (ref[col[e]] < 0) {
        ref[col[e]] = ref[u] + 1;
        q.push_back(col[e]);
      }
  }
  size_t bad = 0;
  for (int v = 0; v < n; v++)
    if (h[v] != ref[v] && bad++ < 5)
      fprintf(stderr, "bfs: level[%d] = %d, expected %d\n", v, h[v], ref[v]);
  bool valid = bad == 0;
  int ref_depth = ref[q.back()] + 1;  // one launch per non-empty frontier (levels 0..max)
  if (depth != ref_depth) {
    fprintf(stderr, "bfs: %d launches per BFS, expected %d\n", depth, ref_depth);
    valid = false;
  }

  bench_report("bfs", ms, a, bench_hash(h.data(), n * sizeof(int)), valid);
  cudaFree(d_row); cudaFree(d_col); cudaFree(d_level);
  cudaFree(d_q0); cudaFree(d_q1); cudaFree(d_counts);
  return valid ? 0 : 1;
}
