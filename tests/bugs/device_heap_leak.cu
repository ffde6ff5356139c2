// One thread's in-kernel malloc block is never freed (the others free
// theirs): reported at exit with the kernel, the thread and the line.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: done
// CHECK: ERROR: GPUSanitizer: detected device memory leaks
// CHECK: Leak of 48 byte(s) at 0x{{[0-9a-f]+}} (device heap)
// CHECK-NEXT: allocated by device thread (2,0,0) block (1,0,0) here:
// CHECK-NEXT: #0 malloc in leaky(char**) at {{.*}}device_heap_leak.cu:20
// CHECK: SUMMARY: GPUSanitizer: 48 byte(s) leaked in 1 allocation(s).
#include <cstdio>
__global__ void release(char **keep) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t != 6) free(keep[t]);  // bug: block 1 thread 2 (t = 6) keeps its block
}
__global__ void leaky(char **keep) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  char *p = (char *)malloc(48);
  if (p) p[47] = (char)t;
  keep[t] = p;
}
int main() {
  char **keep;
  cudaMalloc(&keep, 8 * sizeof(char *));
  leaky<<<2, 4>>>(keep);
  release<<<2, 4>>>(keep);
  cudaDeviceSynchronize();
  cudaFree(keep);
  printf("done\n");
  return 0;
}
