// Idiom: <<<>>> of a kernel template instantiated with a type and a block size,
// kernel<float, 256><<<...>>> (CUB-style and HeCBench kernels with ITEMS per thread). Each
// thread handles ITEMS elements strided by the block size, with no check of the last tile:
// past the end when n is not a multiple of BLOCK * ITEMS.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

template <typename T, int BLOCK, int ITEMS>
__global__ void scale(T *a, T s, int n) {
  int base = blockIdx.x * BLOCK * ITEMS + threadIdx.x;
#pragma unroll
  for (int k = 0; k < ITEMS; k++)
    // CHECK: launch_template.cu:[[@LINE+1]]:5: warning: out-of-bounds write to 'a' [gsan-scan-oob]
    a[base + k * BLOCK] *= s;
  // n = 15: one tile of 1024; thread 15 at k = 0 writes a[15] of 15 floats
  // CHECK: note: witness: n=15, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=15, k=0: index 15 of 'd' >= size 15
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  scale<float, 256, 4><<<(n + 1023) / 1024, 256>>>(d, 0.5f, n);
  cudaFree(d);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 1 access
