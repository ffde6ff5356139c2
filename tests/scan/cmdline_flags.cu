// Options parsed the way samples do (strcmp against a flag, then atoi), and
// the index formed with __umul24 (the low 24 bits of each operand,
// multiplied). The guard lets i reach n: with -n 16, thread 16 writes a[16].
// The outcome of strcmp is an input, named as written in the witness.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void zero(float *a, int n) {
  int i = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
  // CHECK: cmdline_flags.cu:[[@LINE+1]]:15: warning: out-of-bounds write to 'a' [gsan-scan-oob]
  if (i <= n) a[i] = 0;
  // CHECK: note: witness: argc=16, strcmp(argv[1], "-n")=0, n=16, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=16: index 16 of 'd' >= size 16 (4-byte elements: byte 64, size 64 bytes)
}

int main(int argc, char **argv) {
  int n = 1024;
  if (argc > 2 && strcmp(argv[1], "-n") == 0) n = atoi(argv[2]);
  if (n < 1 || n > 100000) return 1;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  zero<<<(n + 255) / 256, 256>>>(d, n);
  cudaFree(d);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 1 access
