// What the stress programs share: a check on every CUDA call that names the
// call and its error and exits 3 (a status no sanitizer report uses), and a
// small deterministic random generator (each program's run is the same).
#pragma once
#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                                  \
  do {                                                                                         \
    cudaError_t e_ = (x);                                                                      \
    if (e_ != cudaSuccess) {                                                                   \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_));        \
      exit(3);                                                                                 \
    }                                                                                          \
  } while (0)

struct rng {
  unsigned long long s;
  explicit rng(unsigned long long seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  unsigned next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return (unsigned)(s >> 11);
  }
  // a size from a mix like real programs': mostly small, a few large
  size_t size() {
    unsigned r = next() % 1000;
    if (r < 700) return 1 + next() % 256;
    if (r < 950) return 257 + next() % 65536;
    if (r < 999) return 65537 + next() % (1 << 20);
    return (1 << 20) + next() % (3 << 20);
  }
};

// every byte of p[0, n) set to v, then counted where it is not v
__global__ void stress_fill(unsigned char *p, size_t n, unsigned char v) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = v;
}
__global__ void stress_verify(const unsigned char *p, size_t n, unsigned char v, unsigned *bad) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    if (p[i] != v) atomicAdd(bad, 1u);
}
static inline unsigned stress_blocks(size_t n) {
  size_t b = (n + 255) / 256;
  return b > 256 ? 256 : (unsigned)b;
}
