// The address of a local array is passed to a __noinline__ callee that keeps
// it; after the array's function has returned, the kept pointer is used.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: use-after-scope on address
// CHECK: READ of size 4
// CHECK: #0 bump_kept() at {{.*}}use_after_scope_callee.cu:29
// CHECK: is a local variable of a function that has returned
#include <cstdio>

__device__ int *kept[64];

__device__ __noinline__ int keep(int *p) {
  kept[threadIdx.x] = p; // fine while the caller's frame lives
  return p[0] + p[7];
}

__device__ __noinline__ int with_local(int v) {
  int a[8];
  for (int i = 0; i < 8; i++) a[i] = v + i;
  return keep(a);
}

__device__ __noinline__ void bump_kept() {
  int *p = kept[threadIdx.x];
  int i = threadIdx.x & 7;
  p[i] = p[i] + 1;
}

__global__ void keep_then_write(int *out, int v) {
  out[threadIdx.x] = with_local(v);
  bump_kept();
}

int main() {
  int *out;
  cudaMalloc(&out, 32 * sizeof(int));
  keep_then_write<<<1, 32>>>(out, 2);
  cudaError_t e = cudaDeviceSynchronize();
  printf("kernel: %s\n", cudaGetErrorString(e));
  return 0;
}
