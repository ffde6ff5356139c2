// A pointer argument in no allocation, dereferenced where no allocation is
// either: a is 4000 bytes, and a + (1 << 22) is 16 MiB on, in the arena but in
// no allocation. Reports name accesses that leave valid memory, not pointer
// values (clean_one_based.cu), and this access does: still reported.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: wild-pointer on address
// CHECK-NEXT: READ of size 4 at {{.*}} by thread (0,0,0) block (0,0,0)
// CHECK-NEXT: #0 peek(float const*, float*) at {{.*}}wild_root.cu:14
#include <cstdio>
__global__ void peek(const float *p, float *out) {
  out[0] = p[0]; // BUG: p points at no allocation
}
int main() {
  float *a, *out;
  cudaMalloc(&a, 1000 * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  peek<<<1, 1>>>(a + (1 << 22), out);
  cudaDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
