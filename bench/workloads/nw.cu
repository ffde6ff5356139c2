// Needleman-Wunsch global alignment of two length-N sequences (N = 16384) in the
// shape of Rodinia nw: an (N+1)x(N+1) int score matrix and an NxN int reference
// (substitution score) matrix in global memory, filled in 32x32 tiles, one launch
// per anti-diagonal of tiles; each block copies its tile of the reference and the
// halo (the row above and the column to the left, the latter strided by the
// matrix pitch) into shared memory, sweeps the tile's anti-diagonals there and
// writes the tile back. Integer scores, so the result is exact.
// For a bounds checker: 2D pointer arithmetic with a large pitch, a strided halo
// column, block-sized tile loads and stores into two 1 GiB allocations, and
// ~1000 short dependent launches per fill.
#include "bench.h"

constexpr int B = 32;  // tile edge = threads per block

__host__ __device__ inline int nw_max3(int a, int b, int c) {
  int m = a > b ? a : b;
  return m > c ? m : c;
}

// score[i][j] = -pen * (i + j) on the first row and column, 0 elsewhere.
__global__ void nw_init(int *score, int n, int pen) {
  size_t pitch = (size_t)n + 1;
  for (size_t i = blockIdx.x; i < pitch; i += gridDim.x)
    for (size_t j = threadIdx.x; j < pitch; j += blockDim.x)
      score[i * pitch + j] = (i == 0 || j == 0) ? -pen * (int)(i + j) : 0;
}

// The tiles (ti, tj) with ti + tj = diag; tile (ti, tj) holds the cells
// i in [ti*B+1, ti*B+B], j in [tj*B+1, tj*B+B]; ref[(i-1)*n + (j-1)] scores
// the pair (i, j).
__global__ void nw_tile(int *score, const int *__restrict__ ref, int n, int diag, int pen) {
  __shared__ int s[B + 1][B + 2];  // even pitch: an anti-diagonal hits 32 distinct banks
  __shared__ int r[B][B];
  const int tiles = n / B;
  const int ti = max(0, diag - tiles + 1) + blockIdx.x, tj = diag - ti;
  if (ti >= tiles || tj < 0) return;
  const int tx = threadIdx.x;
  const size_t pitch = (size_t)n + 1;
  int *base = score + (size_t)ti * B * pitch + (size_t)tj * B;  // cell (ti*B, tj*B)
  const int *rbase = ref + (size_t)ti * B * n + (size_t)tj * B;

  if (tx == 0) s[0][0] = base[0];
  s[0][tx + 1] = base[tx + 1];
  s[tx + 1][0] = base[(size_t)(tx + 1) * pitch];
  for (int y = 0; y < B; y++) r[y][tx] = rbase[(size_t)y * n + tx];
  __syncthreads();

  for (int d = 0; d < 2 * B - 1; d++) {  // thread tx owns column tx of the tile
    int y = d - tx;
    if (y >= 0 && y < B)
      s[y + 1][tx + 1] = nw_max3(s[y][tx] + r[y][tx], s[y][tx + 1] - pen, s[y + 1][tx] - pen);
    __syncthreads();
  }

  for (int y = 0; y < B; y++) base[(size_t)(y + 1) * pitch + tx + 1] = s[y + 1][tx + 1];
}

static inline uint32_t mix32(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352du;
  x ^= x >> 15; x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  const int n = 16384;  // score (n+1)^2 ints and reference n^2 ints: 1 GiB each
  const int pen = 10;   // linear gap penalty (Rodinia's default)
  const int iters = 12; // a fill = 1 GiB init + 1023 launches of <= 512 one-warp blocks, each
                        // ~63 dependent shared-memory steps: ~5 us apiece, ~5.5 ms per fill,
                        // ~66 ms per repetition
  static_assert(n % B == 0, "n must be a multiple of the tile edge");
  const size_t pitch = (size_t)n + 1;
  const int tiles = n / B;

  // Two random sequences over a 20-letter alphabet and a symmetric substitution
  // table with +5..+11 on the diagonal and -4..+2 off it.
  int sub[20][20];
  for (int x = 0; x < 20; x++)
    for (int y = 0; y < 20; y++)
      sub[x][y] = x == y ? 5 + x % 7 : (int)(mix32(std::min(x, y) * 20u + std::max(x, y)) % 7) - 4;
  std::vector<unsigned char> sa(n), sb(n);
  for (int i = 0; i < n; i++) {
    sa[i] = (unsigned char)(mix32(2u * i + 0x1234567u) % 20);
    sb[i] = (unsigned char)(mix32(2u * i + 0x89abcdeu) % 20);
  }
  std::vector<int> ref((size_t)n * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) ref[(size_t)i * n + j] = sub[sa[i]][sb[j]];

  int *d_score, *d_ref;
  BENCH_CHECK(cudaMalloc(&d_score, pitch * pitch * sizeof(int)));
  BENCH_CHECK(cudaMalloc(&d_ref, (size_t)n * n * sizeof(int)));
  BENCH_CHECK(cudaMemcpy(d_ref, ref.data(), (size_t)n * n * sizeof(int), cudaMemcpyHostToDevice));

  int sms = 0;
  BENCH_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int init_block = 256, init_grid = sms * 16;
  bench_kernel("nw_init", (const void *)nw_init, init_block, 0);
  bench_kernel("nw_tile", (const void *)nw_tile, B, 0);

  double ms = bench_time(a, [&] {
    for (int it = 0; it < iters; it++) {
      nw_init<<<init_grid, init_block>>>(d_score, n, pen);
      for (int d = 0; d < 2 * tiles - 1; d++) {
        int count = std::min(d, tiles - 1) - std::max(0, d - tiles + 1) + 1;
        nw_tile<<<count, B>>>(d_score, d_ref, n, d, pen);
      }
    }
  });

  std::vector<int> h(pitch * pitch);
  BENCH_CHECK(cudaMemcpy(h.data(), d_score, h.size() * sizeof(int), cudaMemcpyDeviceToHost));

  // CPU reference: the same recurrence row by row over the whole matrix.
  size_t bad = 0;
  std::vector<int> prev(pitch), cur(pitch);
  for (size_t j = 0; j < pitch; j++) prev[j] = -pen * (int)j;
  for (size_t j = 0; j < pitch; j++)
    if (h[j] != prev[j]) bad++;
  for (size_t i = 1; i < pitch; i++) {
    cur[0] = -pen * (int)i;
    const int *rrow = &ref[(i - 1) * n];
    for (size_t j = 1; j < pitch; j++)
      cur[j] = nw_max3(prev[j - 1] + rrow[j - 1], prev[j] - pen, cur[j - 1] - pen);
    const int *g = &h[i * pitch];
    for (size_t j = 0; j < pitch; j++)
      if (g[j] != cur[j] && bad++ < 5)
        fprintf(stderr, "nw: score[%zu][%zu] = %d, expected %d\n", i, j, g[j], cur[j]);
    std::swap(prev, cur);
  }
  bool valid = bad == 0;

  bench_report("nw", ms, a, bench_hash(h.data(), h.size() * sizeof(int)), valid);
  cudaFree(d_score); cudaFree(d_ref);
  return valid ? 0 : 1;
}
