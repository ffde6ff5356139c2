// A write one element past a block from in-kernel malloc: the block's exact
// size is in the slot table, so the store is caught at its line, and the
// report names the thread and line of the malloc.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: device-heap-buffer-overflow on address
// CHECK: WRITE of size 4 at {{.*}} by thread (3,0,0) block (1,0,0)
// CHECK: #0 fill(int**, int) at {{.*}}device_heap_overflow.cu:21
// CHECK: is located 0 bytes after 40-byte region
// CHECK: allocated by device thread (3,0,0) block (1,0,0) here:
// CHECK-NEXT: #0 malloc in fill(int**, int) at {{.*}}device_heap_overflow.cu:18
#include <cstdio>
__global__ void fill(int **keep, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t != 7) return;
  int *p = (int *)malloc(n * sizeof(int));
  if (!p) return;
  for (int i = 0; i < n; i++) p[i] = i;
  p[n] = n;  // bug: one past the end
  *keep = p;
}
int main() {
  int **keep;
  cudaMalloc(&keep, sizeof(int *));
  fill<<<2, 4>>>(keep, 10);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
