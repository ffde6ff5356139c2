// A block from in-kernel malloc freed twice, the second time through a copy
// of the pointer kept in global memory: reported at the second free, with
// the thread and line of the malloc.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: device-heap-double-free on address
// CHECK: free(0x{{[0-9a-f]+}}) by thread (0,0,0) block (0,0,0)
// CHECK: #0 twice(void* volatile*) at {{.*}}device_heap_double_free.cu:21
// CHECK: is located 0 bytes inside 64-byte region
// CHECK: previously allocated by device thread (0,0,0) block (0,0,0) here:
// CHECK-NEXT: #0 malloc in twice(void* volatile*) at {{.*}}device_heap_double_free.cu:17
#include <cstdio>
__global__ void twice(void *volatile *keep) {
  if (threadIdx.x != 0) return;
  void *p = malloc(64);
  if (!p) return;
  *keep = p;
  free(p);
  free(*keep);  // bug: freed already
}
int main() {
  void **keep;
  cudaMalloc(&keep, sizeof(void *));
  twice<<<1, 32>>>(keep);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(keep);
  return 0;
}
