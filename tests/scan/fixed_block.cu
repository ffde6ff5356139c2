// SCuBA's fluidAdvection (advCubature): the kernel is launched with a fixed
// 16x16 block, the buffer it reads is sized by two inputs. With cubN = 1 and
// Nelements = 1 the buffer holds 8 * 1 * 3 = 24 doubles, but thread (4, 8)
// reads cubD[8 * 16 + 4] = cubD[132].
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
// CHECK: note: witness: cubN=1, Nelements=1, blockDim.x=16, blockDim.y=16, threadIdx.x=4, threadIdx.y=8: index 132 >= size 24
// CHECK: gsan scan: 1 finding, 0 unknown in 2 accesses
