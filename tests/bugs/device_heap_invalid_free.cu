// free of a pointer into the middle of an in-kernel malloc block: an
// invalid free, reported at the call; the block itself is named.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: device-heap-invalid-free on address
// CHECK: free(0x{{[0-9a-f]+}}) by thread (0,0,0) block (0,0,0)
// CHECK: #0 interior(int**, int) at {{.*}}device_heap_invalid_free.cu:19
// CHECK: is located 16 bytes inside 64-byte region
// CHECK: allocated by device thread (0,0,0) block (0,0,0) here:
// CHECK-NEXT: #0 malloc in interior(int**, int) at {{.*}}device_heap_invalid_free.cu:16
#include <cstdio>
__global__ void interior(int **keep, int skip) {
  if (threadIdx.x != 0) return;
  int *p = (int *)malloc(16 * sizeof(int));
  if (!p) return;
  *keep = p;
  free(p + skip);  // bug: not the block's start
}
int main() {
  int **keep;
  cudaMalloc(&keep, sizeof(int *));
  interior<<<1, 32>>>(keep, 4);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(keep);
  return 0;
}
