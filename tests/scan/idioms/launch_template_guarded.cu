// Idiom: <<<>>> of a kernel template instantiated with a type and a block size; the guarded
// twin of launch_template.cu: each of the ITEMS elements is checked against n.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 1 access
#include <cstdlib>
#include <cuda_runtime.h>

template <typename T, int BLOCK, int ITEMS>
__global__ void scale(T *a, T s, int n) {
  int base = blockIdx.x * BLOCK * ITEMS + threadIdx.x;
#pragma unroll
  for (int k = 0; k < ITEMS; k++)
    if (base + k * BLOCK < n) a[base + k * BLOCK] *= s;
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
