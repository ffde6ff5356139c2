// Pointers loaded from device memory. A table of 8192 row pointers, each to its
// own cudaMalloc'd row of 16 Ki..48 Ki ints (1 GiB in all), read two ways:
// row_scan streams every row through the pointer loaded once per row (a
// weighted sum per row), row_gather makes 16 random lookups rows[r][c] per
// thread, reloading a row pointer for every access. Then chase: 2 Mi walkers
// each follow 32 `next` pointers through a linked structure of 16 Mi nodes
// spread over 4096 separately cudaMalloc'd chunks, every hop landing in a
// random chunk. 12288 allocations in all, of sizes that are not multiples of
// 256 bytes.
// For a bounds checker this is the case where the allocation a pointer belongs
// to is known only at run time: every dereference is of a pointer that came
// out of memory, the gather and the chase change allocation on every access,
// and the chase's loads are all dependent.
#include "bench.h"

constexpr int kScanBlock = 256;

struct Node {
  const Node *next;
  unsigned val;
  unsigned pad;
};

__host__ __device__ inline uint32_t mix32(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352du;
  x ^= x >> 15; x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// The value of rows[r][c].
__host__ __device__ inline uint32_t cell(uint32_t r, uint32_t c) {
  return mix32(r * 0x9e3779b9u + mix32(c ^ 0x85ebca6bu));
}

// Setup (not timed): fills every row through its pointer.
__global__ void row_fill(int *const *rows, const int *lens, int m) {
  for (int r = blockIdx.x; r < m; r += gridDim.x) {
    int *p = rows[r];
    for (int c = threadIdx.x; c < lens[r]; c += blockDim.x) p[c] = (int)cell(r, c);
  }
}

// out[r] = sum over c of rows[r][c] * (c % 8 + 1), mod 2^32 (order-independent).
__global__ void row_scan(const int *const *__restrict__ rows, const int *__restrict__ lens, int m,
                         unsigned *out) {
  __shared__ unsigned part[kScanBlock];
  for (int r = blockIdx.x; r < m; r += gridDim.x) {
    const int *p = rows[r];
    int len = lens[r];
    unsigned s = 0;
    for (int c = threadIdx.x; c < len; c += blockDim.x) s += (unsigned)p[c] * ((c & 7) + 1);
    part[threadIdx.x] = s;
    __syncthreads();
    for (int k = kScanBlock / 2; k > 0; k >>= 1) {
      if (threadIdx.x < k) part[threadIdx.x] += part[threadIdx.x + k];
      __syncthreads();
    }
    if (threadIdx.x == 0) out[r] = part[0];
    __syncthreads();
  }
}

// Thread t makes q lookups at pseudo-random (r, c) and folds them into out[t].
__host__ __device__ inline uint32_t gather_start(uint32_t t) { return mix32(t ^ 0x2545f491u); }
__host__ __device__ inline uint32_t gather_step(uint32_t x) { return mix32(x + 0x9e3779b9u); }
__host__ __device__ inline uint32_t gather_col(uint32_t x, uint32_t len) {
  return mix32(x ^ 0x5bd1e995u) % len;
}

__global__ void row_gather(const int *const *__restrict__ rows, const int *__restrict__ lens,
                           int m, int q, unsigned *out, int nthreads) {
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < nthreads; t += gridDim.x * blockDim.x) {
    uint32_t x = gather_start(t), s = 0;
    for (int k = 0; k < q; k++) {
      x = gather_step(x);
      uint32_t r = x % (uint32_t)m;
      const int *p = rows[r];
      s = s * 33u + (uint32_t)p[gather_col(x, (uint32_t)lens[r])];
    }
    out[t] = s;
  }
}

// Walker w follows `hops` next pointers from heads[w], folding in each node's value.
__global__ void chase(const Node *const *__restrict__ heads, int walkers, int hops,
                      unsigned *out) {
  for (int w = blockIdx.x * blockDim.x + threadIdx.x; w < walkers; w += gridDim.x * blockDim.x) {
    const Node *p = heads[w];
    unsigned acc = 0;
    for (int h = 0; h < hops; h++) {
      acc = acc * 31u + p->val;
      p = p->next;
    }
    out[w] = acc ^ p->val;
  }
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  const int m = 8192;           // rows of 16384 + [0, 32768) ints: ~1 GiB
  const int chunks = 4096;      // node chunks of 2048 + [0, 4096) nodes of 16 B: ~256 MiB
  const int gthreads = 1 << 22; // row_gather: 4 Mi threads x 16 lookups
  const int gq = 16;
  const int walkers = 1 << 21;  // chase: 2 Mi walkers x 32 hops
  const int hops = 32;
  const int iters = 12;         // per iteration: row_scan streams 1 GiB (~0.5 ms), row_gather and
                                // chase make 64 Mi random DRAM reads each (~2.5 ms apiece):
                                // ~5.5 ms, ~66 ms per repetition

  // Rows: one allocation each.
  std::vector<int> lens(m);
  std::vector<int *> rows(m);
  for (int r = 0; r < m; r++) {
    lens[r] = 16384 + (int)(mix32(r ^ 0x68e31da4u) % 32768);
    BENCH_CHECK(cudaMalloc(&rows[r], lens[r] * sizeof(int)));
  }
  int **d_rows, *d_lens;
  BENCH_CHECK(cudaMalloc(&d_rows, m * sizeof(int *)));
  BENCH_CHECK(cudaMalloc(&d_lens, m * sizeof(int)));
  BENCH_CHECK(cudaMemcpy(d_rows, rows.data(), m * sizeof(int *), cudaMemcpyHostToDevice));
  BENCH_CHECK(cudaMemcpy(d_lens, lens.data(), m * sizeof(int), cudaMemcpyHostToDevice));
  row_fill<<<m, kScanBlock>>>(d_rows, d_lens, m);
  BENCH_CHECK(cudaGetLastError());

  // Nodes: chunk c holds cnt[c] nodes, global ids off[c] ...; node g points to a
  // random node of a random chunk. The host keeps the same graph by global id.
  std::vector<int> cnt(chunks);
  std::vector<uint32_t> off(chunks + 1, 0);
  std::vector<Node *> chunk(chunks);
  for (int c = 0; c < chunks; c++) {
    cnt[c] = 2048 + (int)(mix32(c ^ 0x1b873593u) % 4096);
    off[c + 1] = off[c] + cnt[c];
    BENCH_CHECK(cudaMalloc(&chunk[c], cnt[c] * sizeof(Node)));
  }
  const uint32_t nodes = off[chunks];
  std::vector<uint32_t> hnext(nodes), hval(nodes);
  std::vector<Node> img;
  for (int c = 0; c < chunks; c++) {
    img.assign(cnt[c], Node{nullptr, 0, 0});
    for (int k = 0; k < cnt[c]; k++) {
      uint32_t g = off[c] + k;
      uint32_t tc = mix32(2 * g + 1) % chunks;
      uint32_t tk = mix32(g ^ 0xcc9e2d51u) % cnt[tc];
      hnext[g] = off[tc] + tk;
      hval[g] = mix32(g ^ 0xe6546b64u);
      img[k].next = chunk[tc] + tk;
      img[k].val = hval[g];
    }
    BENCH_CHECK(cudaMemcpy(chunk[c], img.data(), cnt[c] * sizeof(Node), cudaMemcpyHostToDevice));
  }
  std::vector<const Node *> heads(walkers);
  std::vector<uint32_t> cur(walkers);
  for (int w = 0; w < walkers; w++) {
    uint32_t c = mix32(w ^ 0x3c6ef372u) % chunks;
    uint32_t k = mix32(3u * w + 0xa54ff53au) % cnt[c];
    heads[w] = chunk[c] + k;
    cur[w] = off[c] + k;
  }
  const Node **d_heads;
  BENCH_CHECK(cudaMalloc(&d_heads, walkers * sizeof(Node *)));
  BENCH_CHECK(cudaMemcpy(d_heads, heads.data(), walkers * sizeof(Node *), cudaMemcpyHostToDevice));

  unsigned *d_scan, *d_gather, *d_chase;
  BENCH_CHECK(cudaMalloc(&d_scan, m * sizeof(unsigned)));
  BENCH_CHECK(cudaMalloc(&d_gather, gthreads * sizeof(unsigned)));
  BENCH_CHECK(cudaMalloc(&d_chase, walkers * sizeof(unsigned)));

  const int block = 256;
  bench_kernel("row_scan", (const void *)row_scan, kScanBlock, 0);
  bench_kernel("row_gather", (const void *)row_gather, block, 0);
  bench_kernel("chase", (const void *)chase, block, 0);
  double ms = bench_time(a, [&] {
    for (int it = 0; it < iters; it++) {
      BENCH_CHECK(cudaMemsetAsync(d_scan, 0, m * sizeof(unsigned)));
      BENCH_CHECK(cudaMemsetAsync(d_gather, 0, gthreads * sizeof(unsigned)));
      BENCH_CHECK(cudaMemsetAsync(d_chase, 0, walkers * sizeof(unsigned)));
      row_scan<<<m, kScanBlock>>>(d_rows, d_lens, m, d_scan);
      row_gather<<<(gthreads + block - 1) / block, block>>>(d_rows, d_lens, m, gq, d_gather,
                                                            gthreads);
      chase<<<(walkers + block - 1) / block, block>>>(d_heads, walkers, hops, d_chase);
    }
  });

  std::vector<unsigned> hs(m), hg(gthreads), hc(walkers);
  BENCH_CHECK(cudaMemcpy(hs.data(), d_scan, m * sizeof(unsigned), cudaMemcpyDeviceToHost));
  BENCH_CHECK(cudaMemcpy(hg.data(), d_gather, gthreads * sizeof(unsigned), cudaMemcpyDeviceToHost));
  BENCH_CHECK(cudaMemcpy(hc.data(), d_chase, walkers * sizeof(unsigned), cudaMemcpyDeviceToHost));

  // CPU reference for all three outputs.
  size_t bad = 0;
  for (int r = 0; r < m; r++) {
    uint32_t s = 0;
    for (int c = 0; c < lens[r]; c++) s += cell(r, c) * ((c & 7) + 1);
    if (hs[r] != s && bad++ < 5) fprintf(stderr, "row_scan: out[%d] = %u, expected %u\n", r, hs[r], s);
  }
  for (int t = 0; t < gthreads; t++) {
    uint32_t x = gather_start(t), s = 0;
    for (int k = 0; k < gq; k++) {
      x = gather_step(x);
      uint32_t r = x % (uint32_t)m;
      s = s * 33u + cell(r, gather_col(x, (uint32_t)lens[r]));
    }
    if (hg[t] != s && bad++ < 5) fprintf(stderr, "row_gather: out[%d] = %u, expected %u\n", t, hg[t], s);
  }
  std::vector<uint32_t> acc(walkers, 0);
  for (int h = 0; h < hops; h++)  // hop-outer: independent misses overlap on the CPU
    for (int w = 0; w < walkers; w++) {
      acc[w] = acc[w] * 31u + hval[cur[w]];
      cur[w] = hnext[cur[w]];
    }
  for (int w = 0; w < walkers; w++) {
    uint32_t s = acc[w] ^ hval[cur[w]];
    if (hc[w] != s && bad++ < 5) fprintf(stderr, "chase: out[%d] = %u, expected %u\n", w, hc[w], s);
  }
  bool valid = bad == 0;

  uint64_t sum = bench_hash(hs.data(), m * sizeof(unsigned));
  sum = bench_hash(hg.data(), gthreads * sizeof(unsigned), sum);
  sum = bench_hash(hc.data(), walkers * sizeof(unsigned), sum);
  bench_report("pointer_chase", ms, a, sum, valid);
  for (int r = 0; r < m; r++) cudaFree(rows[r]);
  for (int c = 0; c < chunks; c++) cudaFree(chunk[c]);
  cudaFree(d_rows); cudaFree(d_lens); cudaFree(d_heads);
  cudaFree(d_scan); cudaFree(d_gather); cudaFree(d_chase);
  return valid ? 0 : 1;
}
