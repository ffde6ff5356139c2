// Idiom: the command line parsed inside try, a catch that returns
// (HeCBench's bitonic-sort: `try { n = std::stoi(argv[1]); ... } catch
// (...) { Usage(); return -1; }`). The try block is followed; a handler runs
// only on a path where something threw, which the model does not follow.
// Before, the handler's return ended the path after the try, the kernel's
// launch was never reached and every access was "no launch in the analysed
// code". The correct twin of try_catch.cu: the kernel reads only below n.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in 2 accesses
#include <cstdio>
#include <string>
#include <cuda_runtime.h>

#ifndef LIMIT
#define LIMIT(n) (n)
#endif

__global__ void twice(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < LIMIT(n)) out[i] = 2 * in[i];
}

int main(int argc, char **argv) {
  int n;
  try {
    n = std::stoi(argv[1]);
    if (n < 1 || n > (1 << 20)) return 1;
  } catch (...) {
    printf("usage: %s N\n", argv[0]);
    return 1;
  }
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  twice<<<(n + 255) / 256, 256>>>(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
