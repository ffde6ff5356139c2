// A 1-based view a - 1 read four elements at a time (a1[4i + 1] .. a1[4i + 4],
// one merged check of four members whose root is outside every allocation),
// with one thread too many: thread 250 reads a1[1001] .. a1[1004], a[1000] ..
// a[1003], past the 4000-byte allocation. Each member is looked up by its
// own address in the check's stub, and the first that leaves its
// allocation, in program order, is reported: q[2] is read first,
// a1[1002] = a[1001], 4 bytes after the allocation.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK-NEXT: READ of size 4 at {{.*}} by thread (250,0,0) block (0,0,0)
// CHECK-NEXT: #0 quads(float const*, float*, int) at {{.*}}one_based_quad_overflow.cu:21
// CHECK-NEXT: is located 4 bytes after 4000-byte region
#include <cstdio>
__global__ void quads(const float *a1, float *out, int nquads) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= nquads) { // BUG: <= lets thread nquads read past the end
    const float *q = a1 + 4 * i;
    out[i] = q[1] + q[2] + q[3] + q[4];
  }
}
int main() {
  const int n = 1000;
  float *a, *out;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&out, (n / 4 + 1) * sizeof(float));
  quads<<<1, 256>>>(a - 1, out, n / 4);
  cudaDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
