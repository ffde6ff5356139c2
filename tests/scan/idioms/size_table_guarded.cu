// The correct twin of size_table.cu: the grid covers the n elements exactly
// ((n + 127) / 128 blocks, a guard on n), and the kernel reads 22 values per
// grid point laid out as S3D lays them out (value q of grid point t at
// (q - 1) * N_GP + t, N_GP the launch's thread count), in an allocation of
// 22 * n: every access is proved in bounds only with the table's values
// (n = s * s * s with s in {16, 24, 32, 40}; an arbitrary s would wrap).
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cassert>
#include <cstdlib>
#include <cuda_runtime.h>

#define N_GP (blockDim.x * gridDim.x)
#define thread_num (threadIdx.x + (blockIdx.x * blockDim.x))
#define idx2(p, z) (p[(((z)-1) * (N_GP)) + thread_num])

template <class real> __global__ void sum22(const real *y, real *out) {
  real s = 0;
  for (int q = 1; q <= 22; q++) s += idx2(y, q);
  out[thread_num] = s;
}

template <class real> void run(int size) {
  int probSizes_SP[4] = {24, 32, 40, 48};
  int probSizes_DP[4] = {16, 24, 32, 40};
  int *probSizes = (sizeof(real) == sizeof(double)) ? probSizes_DP : probSizes_SP;
  int sizeClass = size - 1;
  assert(sizeClass >= 0 && sizeClass < 4);
  int s = probSizes[sizeClass];
  int n = s * s * s;
  real *y, *out;
  cudaMalloc((void **)&y, 22 * n * sizeof(real));
  cudaMalloc((void **)&out, n * sizeof(real));
  sum22<real><<<n / 128, 128>>>(y, out);
  cudaFree(y);
  cudaFree(out);
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  run<double>(atoi(argv[1]));
  return 0;
}
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in 2 accesses
