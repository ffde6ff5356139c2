// Tables of constants: a local const array indexes another array (an FFT's
// bit reversal). A short table is read exactly (its element at the index
// read): here one entry of the reversal is 8, one past the eight floats of
// each block, and the witness names the iteration that reads it (i = 7).
// A table longer than 64 elements gives a value between its least and its
// greatest element: `spread` holds 3, 1, 9 and 97 zeros, so its reads lie in
// [0, 9]; indexing 8 floats with them is an unknown that names the table, not
// a finding (the model bounds the values, it does not know which one is read
// where). The guarded twin's tables stay below 8 and are proved safe.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// RUN: %gsan-scan -DGUARDED %s | %FileCheck --check-prefix=GUARDED %s
#include <cstdlib>
#include <cuda_runtime.h>

__device__ void reverse8(float *d) {
#ifdef GUARDED
  const int reversed[] = {0, 4, 2, 6, 1, 5, 3, 7};
#else
  const int reversed[] = {0, 4, 2, 6, 1, 5, 3, 8};
#endif
  float t[8];
  // CHECK: const_tables.cu:[[@LINE+1]]:38: warning: out-of-bounds read of 'd' [gsan-scan-oob]
  for (int i = 0; i < 8; i++) t[i] = d[reversed[i]];
  for (int i = 0; i < 8; i++) d[i] = t[i];
}
// CHECK: note: witness: n=1, gridDim.x=1, blockIdx.x=0, i=7: index 8 >= size 8 (4-byte elements: byte 32, size 32 bytes)

__device__ float spread3(const float *d, int j) {
#ifdef GUARDED
  const int spread[100] = {3, 1, 2};
#else
  const int spread[100] = {3, 1, 9};
#endif
  // CHECK: const_tables.cu:[[@LINE+1]]:10: remark: cannot decide whether the read of 'd' stays in bounds: the value is an element of the constant array 'spread' (line [[@LINE+1]]) [gsan-scan-unknown]
  return d[spread[j]];
}

__global__ void fft8(float *a, int n) {
  int b = blockIdx.x;
  if (b < n) {
    reverse8(a + b * 8);
    a[b * 8] += spread3(a + b * 8, threadIdx.x % 3);
  }
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > 1000) return 1;
  float *d;
  cudaMalloc(&d, n * 8 * sizeof(float));
  fft8<<<n, 1>>>(d, n);
  return 0;
}
// CHECK-NOT: warning:
// CHECK: gsan scan: 1 finding, 1 unknown in 8 accesses
// GUARDED-NOT: warning:
// GUARDED-NOT: remark:
// GUARDED: gsan scan: 0 findings, 0 unknown in 8 accesses
