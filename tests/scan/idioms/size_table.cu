// Idiom: a table of problem sizes picked by a command-line option (the SHOC
// benchmarks' `int probSizes[4] = {...}`, one table for float and one for
// double, chosen by `sizeof(real) == sizeof(double)` in a template): the
// size is an element of a local array that nothing writes, so its value is
// known at each index. The grid rounds up, n / 128 + 1 blocks of 128 threads
// for n elements: one block too many whenever n is a multiple of 128.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cassert>
#include <cstdlib>
#include <cuda_runtime.h>

template <class real> __global__ void scale(real *a, real s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: size_table.cu:[[@LINE+3]]:3: warning: out-of-bounds write to 'a' [gsan-scan-oob]
  // CHECK: note: witness: atoi(argv[1])=1, gridDim.x=3, blockDim.x=128, blockIdx.x=2, threadIdx.x=0: index 256 of 'd' >= size 256 (4-byte elements: byte 1024, size 1024 bytes)
  // CHECK: size_table.cu:[[@LINE+1]]:10: warning: out-of-bounds read of 'a' [gsan-scan-oob]
  a[i] = a[i] * s;
}

template <class real> void run(int size) {
  int probSizes_SP[4] = {16, 64, 256, 1024};
  int probSizes_DP[4] = {8, 32, 128, 512};
  int *probSizes = (sizeof(real) == sizeof(double)) ? probSizes_DP : probSizes_SP;
  int sizeClass = size - 1;
  assert(sizeClass >= 0 && sizeClass < 4);
  int n = probSizes[sizeClass] * probSizes[sizeClass];
  real *d;
  cudaMalloc((void **)&d, n * sizeof(real));
  scale<real><<<n / 128 + 1, 128>>>(d, (real)2);
  cudaFree(d);
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  run<float>(atoi(argv[1]));
  return 0;
}
// size 1: 16 * 16 = 256 floats, 256 / 128 + 1 = 3 blocks: block 2's thread 0 is a[256]
// CHECK: gsan scan: 2 findings, 0 unknown in 2 accesses
