// The guarded twin of fixed_block.cu: the host refuses inputs whose buffer
// holds fewer elements than a block has threads, so every read is in bounds.
// RUN: %gsan-scan %s | %FileCheck %s
// CHECK-NOT: warning
// CHECK: gsan scan: 0 findings, 0 unknown in 2 accesses
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void advCubature(double *s_out, const double *cubD, int Nelements) {
  int id = threadIdx.y * 16 + threadIdx.x;
  int e = blockIdx.x;
  s_out[e * 256 + id] = cubD[id];
}

int main(int argc, char **argv) {
  int cubN = atoi(argv[1]);
  int Nelements = atoi(argv[2]);
  if (cubN < 1 || cubN > 32 || Nelements < 1 || Nelements > 100000) return 1;
  int cubNp = (cubN + 1) * (cubN + 1) * (cubN + 1);
  if (cubNp * Nelements * 3 < 16 * 16) return 1;
  double *cubD, *out;
  cudaMalloc(&cubD, cubNp * Nelements * 3 * sizeof(double));
  cudaMalloc(&out, (size_t)Nelements * 256 * sizeof(double));
  advCubature<<<Nelements, dim3(16, 16)>>>(out, cubD, Nelements);
  return 0;
}
