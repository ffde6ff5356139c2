// A __noinline__ device function returns the address of its local array; the
// kernel reads through it after the function has returned.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: use-after-scope on address
// CHECK: READ of size 4 at {{.*}} by thread ({{[0-9]+}},0,0) block (0,0,0)
// CHECK: #0 read_returned(int*, int) at {{.*}}use_after_scope_return.cu:24
// CHECK: is a local variable of a function that has returned
// CHECK: SUMMARY: GPUSanitizer: use-after-scope {{.*}}use_after_scope_return.cu:24 in read_returned(int*, int)
#include <cstdio>
#pragma nv_diag_suppress 1056 // returning pointer to local variable: the bug under test

__device__ __noinline__ int *fill(int v) {
  int a[8];
  for (int i = 0; i < 8; i++) a[i] = v + i;
  return a;
}

__global__ void read_returned(int *out, int v) {
  int *p = fill(v);
  int i = threadIdx.x & 7;
  out[threadIdx.x] = p[i];
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  read_returned<<<1, 32>>>(out, 5);
  cudaError_t e = cudaDeviceSynchronize();
  printf("kernel: %s\n", cudaGetErrorString(e));
  return 0;
}
