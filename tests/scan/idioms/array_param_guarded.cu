// Idiom: fixed-size helpers whose parameters are declared as arrays
// (hadamard's generated `hadamard_mult_thread_12(float x[12])`, called only
// from a template nobody instantiates; here: mult4 from a kernel, rows from
// nothing). Nothing analysed passes them an
// array, so each parameter points to the elements its declaration names:
// every access here stays inside them and is decided, with no remark. Before,
// x had no value and each of its reads was an unknown ('the pointer is not
// one the model follows'). A helper that is called with an array the model
// follows is checked against that array instead (the kernel below). The
// correct twin of array_param.cu.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in 26 accesses
#include <cuda_runtime.h>

#ifndef LAST
#define LAST 3
#endif
#ifndef ROWS
#define ROWS 2
#endif

__device__ __forceinline__ void mult4(float x[4]) {
  float out[4];
  out[0] = x[0] + x[1] + x[2] + x[3];
  out[1] = x[0] - x[1] + x[2] - x[3];
  out[2] = x[0] + x[1] - x[2] - x[LAST];
  out[3] = x[0] - x[1] - x[2] + x[3];
#pragma unroll
  for (int i = 0; i < 4; i++) x[i] = out[i];
}

// a row of a two-dimensional parameter
__device__ void rows(float y[2][3], int r) {
  if (r < 0 || r >= ROWS) return;
  for (int j = 0; j < 3; j++) y[r][j] *= 2.0f;
}

__global__ void k(float *out, int n) {
  float v[4] = {1, 2, 3, 4};
  mult4(v);
  int i = threadIdx.x;
  if (i < n) out[i] = v[0] + v[3];
}

int main() {
  float *d;
  int n = 64;
  cudaMalloc(&d, n * sizeof(float));
  k<<<1, 64>>>(d, n);
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
