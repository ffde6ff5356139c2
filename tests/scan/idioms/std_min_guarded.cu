// Idiom: a grid size capped with std::min on the host
// (`int blocks = std::min((n + bs - 1) / bs, 2048);`, HeCBench's
// atomicReduction), the kernel a grid-stride loop that reads two elements a
// step. std::min and std::max of integers are followed as the smaller and the
// larger of their arguments, so the launch's grid is known; before, the value
// std::min returned was one whose body is not analysed, and every access of
// the kernel an unknown. The correct twin of std_min.cu: the second element
// is read only where it exists.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in 3 accesses
#include <algorithm>
#include <cstdlib>
#include <cuda_runtime.h>

#ifndef SECOND
#define SECOND(i, n) ((i) + 1 < (n) ? in[(i) + 1] : 0)
#endif

__global__ void pairs(const int *in, int *out, int n) {
  int sum = 0;
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = idx * 2; i < n; i += blockDim.x * gridDim.x * 2) sum += in[i] + SECOND(i, n);
  atomicAdd(out, sum);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  if (n < 1) return 1;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  const int bs = 256;
  int blocks = std::min((n + bs - 1) / bs, 2048);
  pairs<<<std::max(blocks / 2, 1), bs>>>(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
