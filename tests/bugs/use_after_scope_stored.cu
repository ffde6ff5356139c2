// A __noinline__ device function stores the address of its local array in
// global memory; a later call reads through it after the first has returned.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: use-after-scope on address
// CHECK: READ of size 4
// CHECK: #0 read_saved(int) at {{.*}}use_after_scope_stored.cu:24
// CHECK: is a local variable of a function that has returned
#include <cstdio>

__device__ int *saved[64];

__device__ __noinline__ int save(int v) {
  int a[8];
  for (int i = 0; i < 8; i++) a[i] = v * i;
  saved[threadIdx.x] = a;
  return a[v & 7];
}

__device__ __noinline__ int read_saved(int i) {
  int *p = saved[threadIdx.x];
  return p[i & 7];
}

__global__ void store_then_read(int *out, int v) {
  int first = save(v);
  out[threadIdx.x] = first + read_saved(threadIdx.x);
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  store_then_read<<<1, 32>>>(out, 3);
  cudaError_t e = cudaDeviceSynchronize();
  printf("kernel: %s\n", cudaGetErrorString(e));
  return 0;
}
