// A kernel reads through a pointer to an in-kernel malloc block that an
// earlier kernel freed: the freed slot's table entry is 0 and the slot is
// not reused, so the load is a use after free.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: device-heap-use-after-free on address
// CHECK: READ of size 4 at {{.*}} by thread (0,0,0) block (0,0,0)
// CHECK: #0 reader(int**, int*) at {{.*}}device_heap_uaf.cu:28
// CHECK: is located 8 bytes inside 40-byte region
// CHECK: previously allocated by device thread (0,0,0) block (0,0,0) here:
// CHECK-NEXT: #0 malloc in make(int**) at {{.*}}device_heap_uaf.cu:17
#include <cstdio>
__global__ void make(int **keep) {
  if (threadIdx.x != 0) return;
  int *p = (int *)malloc(10 * sizeof(int));
  if (!p) return;
  for (int i = 0; i < 10; i++) p[i] = i;
  *keep = p;
}
__global__ void drop(int **keep) {
  if (threadIdx.x == 0) free(*keep);
}
__global__ void reader(int **keep, int *out) {
  if (threadIdx.x != 0) return;
  int *p = *keep;
  *out = p[2];  // bug: freed by drop
}
int main() {
  int **keep, *out;
  cudaMalloc(&keep, sizeof(int *));
  cudaMalloc(&out, sizeof(int));
  make<<<1, 32>>>(keep);
  drop<<<1, 32>>>(keep);
  reader<<<1, 32>>>(keep, out);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
