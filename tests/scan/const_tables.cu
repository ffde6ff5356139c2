// Tables of constants: a local const array indexes another array (an FFT's
// bit reversal), so each value read from it lies between its least and its
// greatest element. The guarded twin's table stays below 8 and is proved
// safe; here one entry is 8, one past the eight floats of each block: an
// unknown that names the table, not a finding (the model bounds the values,
// it does not know which one is read where), and not an unvalidated index.
// RUN: %gsan-scan %s > %t.txt
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
  // CHECK: const_tables.cu:[[@LINE+1]]:38: remark: cannot decide whether the read of 'd' stays in bounds: the value is an element of the constant array 'reversed' (line [[@LINE+1]]) [gsan-scan-unknown]
  for (int i = 0; i < 8; i++) t[i] = d[reversed[i]];
  for (int i = 0; i < 8; i++) d[i] = t[i];
}

__global__ void fft8(float *a, int n) {
  int b = blockIdx.x;
  if (b < n) reverse8(a + b * 8);
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
// CHECK: gsan scan: 0 findings, 1 unknown in 5 accesses
// GUARDED-NOT: warning:
// GUARDED-NOT: remark:
// GUARDED: gsan scan: 0 findings, 0 unknown in 5 accesses
