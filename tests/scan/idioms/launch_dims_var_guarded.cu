// Idiom: the launch's dimensions in dim3 variables built from the command
// line (`dim3 blocks(wgs)`), and dynamic shared memory sized from the same
// input (17 doubles per thread, romberg style). Thread 0 reads smem[0]: in
// bounds in every launch that runs, since a launch needs at least one thread
// per block (wgs >= 1), although nothing in the program checks wgs. The
// buggy twin (launch_dims_var.cu) sizes the shared memory for one thread
// fewer: a block of one thread gets none.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

#ifndef FEWER
#define FEWER 0
#endif

__global__ void romberg(double *out) {
  extern __shared__ double smem[];
  if (!threadIdx.x) out[blockIdx.x] = smem[0];
}

int main(int argc, char **argv) {
  if (argc != 3) return 1;
  const int nwg = atoi(argv[1]);
  const int wgs = atoi(argv[2]);
  double *d;
  cudaMalloc((void **)&d, nwg * sizeof(double));
  dim3 grids(nwg);
  dim3 blocks(wgs);
  romberg<<<grids, blocks, 17 * (wgs - FEWER) * sizeof(double)>>>(d);
  cudaFree(d);
  return 0;
}
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in 2 accesses
