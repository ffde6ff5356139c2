// Templates and helper functions between main and the launch: the block size
// is a template parameter (the shared tile's size), the launch's block size a
// run-time argument passed through a helper, the allocation made in another
// helper through a pointer to the caller's variable. Blocks wider than TILE
// overflow the tile.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

template <typename T, int TILE>
__global__ void scale(T *a, T s, int n) {
  __shared__ T tile[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: template_helpers.cu:[[@LINE+1]]:3: warning: out-of-bounds write to 'tile' [gsan-scan-oob]
  tile[threadIdx.x] = i < n ? a[i] : T(0);
  // CHECK: note: shared array 'tile' declared here with size 128 * 4 bytes
  // CHECK: note: kernel 'scale' launched here
  // CHECK: note: witness: c.n=1024, c.threads=257, blockDim.x=257, threadIdx.x=256: index 256 >= size 128 (4-byte elements: byte 1024, size 512 bytes)
  __syncthreads();
  // CHECK: template_helpers.cu:[[@LINE+2]]:21: warning: out-of-bounds read of 'tile' [gsan-scan-oob]
  // CHECK: note: witness: c.n=511, c.threads=512, gridDim.x=1, blockDim.x=512, blockIdx.x=0, threadIdx.x=254: index 254 >= size 128
  if (i < n) a[i] = tile[threadIdx.x] * s;
}

template <typename T>
static void alloc(T **p, int n) { cudaMalloc(p, n * sizeof(T)); }

template <typename T, int TILE>
static void run(T *d, int n, int threads) {
  scale<T, TILE><<<(n + threads - 1) / threads, threads>>>(d, T(2), n);
}

struct Config {
  int n, threads;
};

static Config parse(char **argv) {
  Config c;
  c.n = atoi(argv[1]);
  c.threads = atoi(argv[2]);
  return c;
}

int main(int argc, char **argv) {
  Config c = parse(argv);
  if (c.n < 1 || c.n > (1 << 20) || c.threads < 1 || c.threads > 1024) return 1;
  float *d;
  alloc(&d, c.n);
  run<float, 128>(d, c.n, c.threads);
  return 0;
}
// CHECK: gsan scan: 2 findings, 0 unknown in 4 accesses
