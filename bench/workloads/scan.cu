// Exclusive prefix sum of a large unsigned array, scan-then-propagate: each block scans a
// 2048-element tile in shared memory (per-thread serial scan, warp scan with
// __shfl_up_sync, a scan of the warp totals) and writes its tile's total; the tile totals
// are scanned the same way, level by level, until one tile is left; then each level's
// scanned totals are added back to the tiles below it. Several kernels per scan, some
// tiny, one running in place on its own output.
// For a bounds checker: coalesced loads and stores with a partial last tile (guards on
// every access), padded shared-memory indexing that is not a plain thread index, in-place
// read-then-write of the same global array, and a chain of launches on small buffers.
#include "bench.h"

constexpr int SBLOCK = 256;               // threads per block
constexpr int SITEMS = 8;                 // elements per thread
constexpr int TILE = SBLOCK * SITEMS;     // elements per block: 2048

__host__ __device__ inline uint32_t mix32(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352du;
  x ^= x >> 15; x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// The input: 0..7, so the total of 2^29 of them stays below 2^32.
__host__ __device__ inline unsigned value(size_t i) { return mix32((uint32_t)i) & 7u; }

// One padding word per 32: a thread's SITEMS consecutive elements fall in distinct banks.
__device__ __forceinline__ int pad(int i) { return i + (i >> 5); }

__device__ __forceinline__ unsigned warp_incl_scan(unsigned v, int lane) {
  for (int o = 1; o < 32; o <<= 1) {
    unsigned t = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += t;
  }
  return v;
}

// Exclusive scan of tile blockIdx.x of in[0, n) into out (in and out may be the same
// array: every read is done before the first write), the tile's total into sums.
__global__ void scan_tiles(const unsigned *in, unsigned *out, unsigned *sums, size_t n) {
  __shared__ unsigned tile[TILE + TILE / 32];
  __shared__ unsigned warp_tot[SBLOCK / 32];
  size_t base = blockIdx.x * (size_t)TILE;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int k = 0; k < SITEMS; k++) {
    int j = threadIdx.x + k * SBLOCK;
    tile[pad(j)] = base + j < n ? in[base + j] : 0u;
  }
  __syncthreads();
  unsigned v[SITEMS], s = 0;
  for (int k = 0; k < SITEMS; k++) {
    v[k] = tile[pad(threadIdx.x * SITEMS + k)];
    s += v[k];
  }
  unsigned incl = warp_incl_scan(s, lane);
  if (lane == 31) warp_tot[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    unsigned w = lane < SBLOCK / 32 ? warp_tot[lane] : 0u;
    unsigned wi = warp_incl_scan(w, lane);
    if (lane < SBLOCK / 32) warp_tot[lane] = wi - w;
  }
  __syncthreads();
  unsigned run = warp_tot[warp] + incl - s;
  for (int k = 0; k < SITEMS; k++) {
    tile[pad(threadIdx.x * SITEMS + k)] = run;
    run += v[k];
  }
  __syncthreads();
  for (int k = 0; k < SITEMS; k++) {
    int j = threadIdx.x + k * SBLOCK;
    if (base + j < n) out[base + j] = tile[pad(j)];
  }
  if (threadIdx.x == SBLOCK - 1) sums[blockIdx.x] = run;
}

// out[tile b] += offs[b]
__global__ void add_offsets(unsigned *out, const unsigned *offs, size_t n) {
  size_t base = blockIdx.x * (size_t)TILE;
  unsigned o = offs[blockIdx.x];
  for (int k = 0; k < SITEMS; k++) {
    size_t j = base + threadIdx.x + k * SBLOCK;
    if (j < n) out[j] += o;
  }
}

__global__ void fill(unsigned *p, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) p[i] = value(i);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  const size_t n = 1ull << 29;  // input and output of 2 GiB each
  const int iters = 21;         // 8 GiB moved per scan (tiles: read+write, add: read+write): ~3.3 ms apiece at ~2.6 TB/s (2.9 ms measured on the H100), ~60 ms per repetition
  unsigned *in, *out;
  BENCH_CHECK(cudaMalloc(&in, n * sizeof(unsigned)));
  BENCH_CHECK(cudaMalloc(&out, n * sizeof(unsigned)));
  // len[L]: elements at level L; lvl[L] (L >= 1): the tile totals of level L-1.
  std::vector<size_t> len{n};
  std::vector<unsigned *> lvl{nullptr};
  while (len.back() > 1) {
    size_t m = (len.back() + TILE - 1) / TILE;
    unsigned *p;
    BENCH_CHECK(cudaMalloc(&p, m * sizeof(unsigned)));
    len.push_back(m);
    lvl.push_back(p);
  }
  const size_t top = len.size() - 1;  // len[top] == 1: the grand total
  fill<<<(unsigned)((n + 255) / 256), 256>>>(in, n);
  bench_kernel("scan_tiles", (const void *)scan_tiles, SBLOCK, 0);
  bench_kernel("add_offsets", (const void *)add_offsets, SBLOCK, 0);
  double ms = bench_time(a, [&] {
    for (int it = 0; it < iters; it++) {
      for (size_t L = 0; L < top; L++)
        scan_tiles<<<(unsigned)len[L + 1], SBLOCK>>>(L ? lvl[L] : in, L ? lvl[L] : out,
                                                     lvl[L + 1], len[L]);
      for (size_t L = top - 1; L-- > 0;)
        add_offsets<<<(unsigned)len[L + 1], SBLOCK>>>(L ? lvl[L] : out, lvl[L + 1], len[L]);
    }
  });
  std::vector<unsigned> h(n);
  BENCH_CHECK(cudaMemcpy(h.data(), out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  bool valid = true;
  unsigned run = 0;
  for (size_t i = 0; i < n; i++) {
    if (h[i] != run) valid = false;
    run += value(i);
  }
  bench_report("scan", ms, a, bench_hash(h.data(), n * sizeof(unsigned)), valid);
  cudaFree(in); cudaFree(out);
  for (size_t L = 1; L <= top; L++) cudaFree(lvl[L]);
  return valid ? 0 : 1;
}
