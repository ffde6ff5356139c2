// A 1-based view a - 1 indexed one too far: i runs to n + 1, and a1[n + 1] is
// a[n], one past the allocation. The pointer the kernel gets is outside every
// allocation (which alone is no error: clean_one_based.cu); the access is
// looked up by its own address and reported against the allocation it left.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK-NEXT: WRITE of size 4 at {{.*}} by thread (232,0,0) block (3,0,0)
// CHECK-NEXT: #0 one_based(float*, int) at {{.*}}one_based_overflow.cu:16
// CHECK-NEXT: is located 0 bytes after 4000-byte region
#include <cstdio>
__global__ void one_based(float *a1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (i <= n + 1) a1[i] = 1.0f; // BUG: a1[n + 1] is one past the end
}
int main() {
  const int n = 1000;
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  one_based<<<4, 256>>>(a - 1, n);
  cudaDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
