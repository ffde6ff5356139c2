// SCuBA's fluidAdvection (advCubature): the kernel is launched with a fixed
// 16x16 block, the buffer it reads is sized by two inputs. With cubN = 2 and
// Nelements = 3 the buffer holds 27 * 3 * 3 = 243 doubles, but thread (11, 15)
// reads cubD[15 * 16 + 11] = cubD[251].
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void advCubature(double *s_out, const double *cubD, int Nelements) {
  int id = threadIdx.y * 16 + threadIdx.x;
  int e = blockIdx.x;
  // CHECK: fixed_block.cu:[[@LINE+1]]:25: warning: out-of-bounds read of 'cubD' [gsan-scan-oob]
  s_out[e * 256 + id] = cubD[id];
}

int main(int argc, char **argv) {
  int cubN = atoi(argv[1]);
  int Nelements = atoi(argv[2]);
  if (cubN < 1 || cubN > 32 || Nelements < 1 || Nelements > 100000) return 1;
  int cubNp = (cubN + 1) * (cubN + 1) * (cubN + 1);
  double *cubD, *out;
  // CHECK: fixed_block.cu:[[@LINE+1]]:3: note: 'cubD' allocated here with size Nelements * (cubN + 1) * (cubN + 1) * (cubN + 1) * 3 * 8 bytes
  cudaMalloc(&cubD, cubNp * Nelements * 3 * sizeof(double));
  cudaMalloc(&out, (size_t)Nelements * 256 * sizeof(double));
  // CHECK: fixed_block.cu:[[@LINE+1]]:3: note: kernel 'advCubature' launched here
  advCubature<<<Nelements, dim3(16, 16)>>>(out, cubD, Nelements);
  return 0;
}
// CHECK: note: witness: cubN=2, Nelements=3, blockDim.x=16, blockDim.y=16, threadIdx.x=11, threadIdx.y=15: index 251 >= size 243
// CHECK: gsan scan: 1 finding, 0 unknown in 2 accesses
