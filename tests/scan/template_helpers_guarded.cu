// The guarded twin of template_helpers.cu: the helper launches with the
// template's tile size as the block size.
// RUN: %gsan-scan %s | %FileCheck %s
// CHECK-NOT: warning
// CHECK: gsan scan: 0 findings, 0 unknown in 4 accesses
#include <cstdlib>
#include <cuda_runtime.h>

template <typename T, int TILE>
__global__ void scale(T *a, T s, int n) {
  __shared__ T tile[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? a[i] : T(0);
  __syncthreads();
  if (i < n) a[i] = tile[threadIdx.x] * s;
}

template <typename T>
static void alloc(T **p, int n) { cudaMalloc(p, n * sizeof(T)); }

template <typename T, int TILE>
static void run(T *d, int n) {
  scale<T, TILE><<<(n + TILE - 1) / TILE, TILE>>>(d, T(2), n);
}

struct Config {
  int n;
};

static Config parse(char **argv) {
  Config c;
  c.n = atoi(argv[1]);
  return c;
}

int main(int argc, char **argv) {
  Config c = parse(argv);
  if (c.n < 1 || c.n > (1 << 20)) return 1;
  float *d;
  alloc(&d, c.n);
  run<float, 128>(d, c.n);
  return 0;
}
